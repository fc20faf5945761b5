import type { TestApp } from "./app.js";

// What the registrars' feeds would have stored (the importers' own tests cover how it gets there): a position
// and its transactions, written as rows.

export interface SeedTxn {
  txnNo: string;
  type: string;
  tradeDate: string;
  units: string;
  amountPaise: bigint;
  stampDutyPaise?: bigint;
  reversesTxnNo?: string;
}

export interface SeedPosition {
  distributorId: string;
  panHash: string | null;
  folioNo: string;
  schemeCode: string;
  units: string;
  nav: string | null;
  navDate?: string;
  marketValue?: string | null;
  txns: SeedTxn[];
}

export async function seedPosition(app: TestApp, p: SeedPosition): Promise<void> {
  const common = { distributorId: p.distributorId, registrar: "CAMS", amcCode: "TEST_AMC", folioNo: p.folioNo, registrarSchemeCode: `T${p.schemeCode}`, schemeCode: p.schemeCode };
  await app.prisma.holdingPosition.create({
    data: {
      ...common, schemeName: `Test Scheme ${p.schemeCode}`, units: p.units, nav: p.nav, navDate: p.navDate ? new Date(p.navDate) : null,
      marketValue: p.marketValue ?? null, balanceDate: new Date("2026-11-21"), holdingNature: "SINGLE", panHash: p.panHash, feedFileId: "hff_test",
    },
  });
  await app.prisma.holdingTransaction.createMany({
    data: p.txns.map((t) => ({
      ...common, schemeName: `Test Scheme ${p.schemeCode}`, txnNo: t.txnNo, type: t.type, registrarTypeCode: t.type.slice(0, 3), tradeDate: new Date(t.tradeDate), units: t.units,
      amountPaise: t.amountPaise, stampDutyPaise: t.stampDutyPaise ?? 0n, reversesTxnNo: t.reversesTxnNo ?? null, panHash: p.panHash, feedFileId: "hff_test",
    })),
  });
}
