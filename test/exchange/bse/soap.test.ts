import { describe, expect, it } from "vitest";
import { orderEntryParams } from "../../../src/exchange/bse/order-entry.js";
import { buildEnvelope, ORDER_ENTRY_SERVICE, readResult, SoapFaultError, SoapFormatError, UPLOAD_SERVICE } from "../../../src/exchange/bse/soap.js";
import type { OrderEntry } from "../../../src/exchange/port.js";

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
<bses:RefNo>2022021810234000002</bses:RefNo>
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
