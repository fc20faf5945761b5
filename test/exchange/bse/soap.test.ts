import { describe, expect, it } from "vitest";
import { orderEntryParams } from "../../../src/integrations/exchange/bse/order-entry.js";
import { buildEnvelope, contractParam, ORDER_ENTRY_SERVICE, readResult, readResultNode, SoapFaultError, SoapFormatError, UPLOAD_SERVICE, WEB_SERVICE } from "../../../src/integrations/exchange/bse/soap.js";
import type { OrderEntry } from "../../../src/integrations/exchange/port.js";

const TO = "https://bsestarmfdemo.bseindia.com/MFOrderEntry/MFOrder.svc/Secure";

const lumpsum: OrderEntry & { orderType: "LUMPSUM_PURCHASE" } = {
  orderId: "ord_1", clientCode: "UCC0001", orderType: "LUMPSUM_PURCHASE", schemeCode: "02-DP", toSchemeCode: null, purchaseType: "FRESH",
  amount: "500.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: false, remarks: null,
  holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null,
};

/** The document's lump sum sample, field for field (our values), one element a line. */
const EXPECTED_LUMPSUM = `
<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:bses="http://bsestarmf.in/">
<soap:Header xmlns:wsa="http://www.w3.org/2005/08/addressing">
<wsa:Action>http://bsestarmf.in/MFOrderEntry/orderEntryParam</wsa:Action>
<wsa:To>https://bsestarmfdemo.bseindia.com/MFOrderEntry/MFOrder.svc/Secure</wsa:To>
</soap:Header>
<soap:Body>
<bses:orderEntryParam>
<bses:TransCode>NEW</bses:TransCode>
<bses:TransNo>2022021810234000002</bses:TransNo>
<bses:OrderId/>
<bses:UserID>1023401</bses:UserID>
<bses:MemberId>10234</bses:MemberId>
<bses:ClientCode>UCC0001</bses:ClientCode>
<bses:SchemeCd>02-DP</bses:SchemeCd>
<bses:BuySell>P</bses:BuySell>
<bses:BuySellType>FRESH</bses:BuySellType>
<bses:DPTxn>P</bses:DPTxn>
<bses:OrderVal>500.00</bses:OrderVal>
<bses:Qty/>
<bses:AllRedeem>N</bses:AllRedeem>
<bses:FolioNo/>
<bses:Remarks/>
<bses:KYCStatus>Y</bses:KYCStatus>
<bses:RefNo>0218000002</bses:RefNo>
<bses:SubBrCode/>
<bses:EUIN/>
<bses:EUINVal>N</bses:EUINVal>
<bses:MinRedeem>N</bses:MinRedeem>
<bses:DPC>Y</bses:DPC>
<bses:IPAdd/>
<bses:Password>UWQ/yLAS7KmiHyExtsKKq3DuHTWuyGGYnAOwLKjOzy0P4s38PSL8nA==</bses:Password>
<bses:PassKey>abc123</bses:PassKey>
<bses:Parma1/>
<bses:Param2/>
<bses:Param3/>
<bses:MobileNo/>
<bses:EmailID/>
<bses:MandateID/>
<bses:Filler1/>
<bses:Filler2/>
<bses:Filler3/>
<bses:Filler4/>
<bses:Filler5/>
<bses:Filler6/>
</bses:orderEntryParam>
</soap:Body>
</soap:Envelope>`.replace(/\n/g, "");

const session = { service: "order" as const, encryptedPassword: "UWQ/yLAS7KmiHyExtsKKq3DuHTWuyGGYnAOwLKjOzy0P4s38PSL8nA==", passKey: "abc123", expiresAt: 0 };
const member = { userId: "1023401", memberId: "10234", defaultEuin: undefined };

describe("SOAP 1.2 envelopes", () => {
  it("builds a lump sum purchase exactly: header Action and To, every element in the document's order, empty ones empty", () => {
    const xml = buildEnvelope(ORDER_ENTRY_SERVICE, "orderEntryParam", TO, orderEntryParams(lumpsum, "2022021810234000002", member, session));
    expect(xml).toBe(EXPECTED_LUMPSUM);
  });

  it("escapes values, so free text cannot change the document's structure", () => {
    const xml = buildEnvelope(ORDER_ENTRY_SERVICE, "orderEntryParam", TO, [["Remarks", `</bses:Remarks><bses:X>1 & "2" 'y'`]]);
    expect(xml).toContain("<bses:Remarks>&lt;/bses:Remarks&gt;&lt;bses:X&gt;1 &amp; &quot;2&quot; &apos;y&apos;</bses:Remarks>");
    expect(() => buildEnvelope(ORDER_ENTRY_SERVICE, "op", TO, [["A", "1"], ["A", "2"]])).toThrow(/given twice/);
  });

  it("uses the upload service's own namespace and action pattern", () => {
    const xml = buildEnvelope(UPLOAD_SERVICE, "getPassword", "https://x/MFUploadService/MFUploadService.svc/Secure", [["UserId", "1"]]);
    expect(xml).toBe(
      `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:ns="http://bsestarmfdemo.bseindia.com/2016/01/">` +
        `<soap:Header xmlns:wsa="http://www.w3.org/2005/08/addressing"><wsa:Action>http://bsestarmfdemo.bseindia.com/2016/01/IMFUploadService/getPassword</wsa:Action>` +
        `<wsa:To>https://x/MFUploadService/MFUploadService.svc/Secure</wsa:To></soap:Header>` +
        `<soap:Body><ns:getPassword><ns:UserId>1</ns:UserId></ns:getPassword></soap:Body></soap:Envelope>`,
    );
  });

  it("builds the web service's data contract parameter: Param in the service namespace, its members in the contract's", () => {
    const xml = buildEnvelope(WEB_SERVICE, "OrderStatus", "https://x/StarMFWebService/StarMFWebService.svc/Secure", [contractParam([["ClientCode", null], ["FromDate", "01/02/2026"]])]);
    expect(xml).toContain(
      '<soap:Body><ns:OrderStatus><ns:Param xmlns:sch="http://schemas.datacontract.org/2004/07/StarMFWebService"><sch:ClientCode/><sch:FromDate>01/02/2026</sch:FromDate></ns:Param></ns:OrderStatus></soap:Body>',
    );
    expect(xml).toContain('xmlns:ns="http://www.bsestarmf.in/2016/01/"');
    expect(xml).toContain("<wsa:Action>http://www.bsestarmf.in/2016/01/IStarMFWebService/OrderStatus</wsa:Action>");
  });

  it("reads a data contract result as a tree of local names (a repeated element is a list)", () => {
    const xml = `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><OrderStatusResponse xmlns="http://www.bsestarmf.in/2016/01/"><OrderStatusResult xmlns:a="http://schemas.datacontract.org/2004/07/StarMFWebService"><a:Message>OK</a:Message><a:OrderDetails><a:OrderDetails><a:OrderNumber>1</a:OrderNumber></a:OrderDetails><a:OrderDetails><a:OrderNumber>2</a:OrderNumber></a:OrderDetails></a:OrderDetails><a:Status>100</a:Status></OrderStatusResult></OrderStatusResponse></s:Body></s:Envelope>`;
    expect(readResultNode(xml, "OrderStatus")).toEqual({ Message: "OK", OrderDetails: { OrderDetails: [{ OrderNumber: "1" }, { OrderNumber: "2" }] }, Status: "100" });
  });

  it("reads the Result of the exchange's answer by local names (s: prefixes, default namespace), entities decoded", () => {
    const answer = `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing">
      <s:Header><a:Action s:mustUnderstand="1">http://bsestarmf.in/MFOrderEntry/getPasswordResponse</a:Action></s:Header>
      <s:Body><getPasswordResponse xmlns="http://bsestarmf.in/"><getPasswordResult>100|UWQ/yLAS7K+m=&amp;</getPasswordResult></getPasswordResponse></s:Body>
    </s:Envelope>`;
    expect(readResult(answer, "getPassword")).toBe("100|UWQ/yLAS7K+m=&");
    expect(readResult(answer.replace(/<getPasswordResult>.*<\/getPasswordResult>/, "<getPasswordResult/>"), "getPassword")).toBe("");
  });

  it("tells a fault, a missing result and a broken document apart", () => {
    const fault = `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code>
      <s:Reason><s:Text xml:lang="en-US">ContractFilter mismatch</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`;
    expect(() => readResult(fault, "getPassword")).toThrow(new SoapFaultError("ContractFilter mismatch"));
    expect(() => readResult(`<s:Envelope xmlns:s="x"><s:Body><otherResponse/></s:Body></s:Envelope>`, "getPassword")).toThrow(SoapFormatError);
    expect(() => readResult(`<s:Envelope><s:Body><broken`, "getPassword")).toThrow(SoapFormatError);
    expect(() => readResult(`<html><body>Runtime Error</body></html>`, "getPassword")).toThrow(SoapFormatError);
  });
});
