import { describe, expect, it } from "vitest";
import { atMostDecimals, exactDecimal, Rupees, rupeesToDecimal } from "../../src/platform/lib/formats.js";

describe("a JSON number as an exact decimal (no arithmetic on the double)", () => {
  it("takes the number's shortest text, so what the client wrote is what is kept", () => {
    expect(exactDecimal(100.1).toString()).toBe("100.1");
    expect(exactDecimal(0.1 + 0.2).toString()).toBe("0.30000000000000004");
    expect(exactDecimal(1e21).toFixed(0)).toBe("1000000000000000000000");
    expect(rupeesToDecimal(1234.5)).toBe("1234.50");
    expect(rupeesToDecimal(0.29)).toBe("0.29");
    expect(rupeesToDecimal(99999999.99)).toBe("99999999.99");
  });

  it("counts decimals exactly: 2 places pass, a third or a float artefact does not", () => {
    const two = atMostDecimals(2);
    expect([1, 1.5, 19.99, 0.01, 3.3].map(two)).toEqual([true, true, true, true, true]);
    expect([1.001, 0.1 + 0.2, 12.345].map(two)).toEqual([false, false, false]);
    expect(atMostDecimals(3)(81.001)).toBe(true);
    expect(atMostDecimals(3)(81.0001)).toBe(false);
  });

  it("Rupees refuses a third decimal with its reason", () => {
    const schema = Rupees(1_000);
    expect(schema.safeParse(10.25).success).toBe(true);
    const refused = schema.safeParse(10.255);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ message: "at most 2 decimals", params: { reason: "too_many_decimals" } });
  });
});
