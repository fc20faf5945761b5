import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  amcCodeFromName,
  collectNavAll,
  NavAllHeaderError,
  parseNavAll,
  parseNavAllFile,
  parseNavDate,
  type AmfiSchemeRecord,
  type NavAllParseResult,
} from '../../src/integrations/amfi/navall.js';
import { AMFI_NEW, AMFI_OLD, amfiFile } from '../helpers/amfi.js';

// AMFI's real files, gzipped under test/fixtures/amfi.
let NEW_FILE: string;
let OLD_FILE: string;

const NEW_HEADER =
  'Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Plan;Option;Net Asset Value;Date';
const OLD_HEADER = 'Scheme Code;ISIN Div Payout/ ISIN Growth;ISIN Div Reinvestment;Scheme Name;Net Asset Value;Date';

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<string | Buffer> {
  yield* parts;
}

function parseText(text: string): Promise<NavAllParseResult> {
  return collectNavAll(chunks(text));
}

function byCode(records: AmfiSchemeRecord[]): Map<string, AmfiSchemeRecord> {
  return new Map(records.map((record) => [record.scheme_code, record]));
}

function countBy(records: AmfiSchemeRecord[], key: (record: AmfiSchemeRecord) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[key(record)] = (counts[key(record)] ?? 0) + 1;
  return counts;
}

let newFile: NavAllParseResult;
let oldFile: NavAllParseResult;
let newByCode: Map<string, AmfiSchemeRecord>;
let oldByCode: Map<string, AmfiSchemeRecord>;

beforeAll(async () => {
  [NEW_FILE, OLD_FILE] = await Promise.all([amfiFile(AMFI_NEW), amfiFile(AMFI_OLD)]);
  [newFile, oldFile] = await Promise.all([parseNavAllFile(NEW_FILE), parseNavAllFile(OLD_FILE)]);
  newByCode = byCode(newFile.records);
  oldByCode = byCode(oldFile.records);
});

// Expected counts were taken independently of the parser (awk/perl over the raw files).
describe('NEW format file (NAVAll-2026-08-21.txt)', () => {
  it('detects the format and reads every data line', () => {
    expect(newFile.format).toBe('NEW');
    expect(newFile.records).toHaveLength(14282);
    expect(newFile.skipped).toEqual([]);
    expect(newByCode.size).toBe(14282);
  });

  it('matches independently counted totals', () => {
    const { records } = newFile;
    expect(countBy(records, (r) => r.scheme_type)).toEqual({
      'Open Ended Schemes': 9530,
      'Close Ended Schemes': 4711,
      'Interval Fund Schemes': 41,
    });
    expect(new Set(records.map((r) => `${r.scheme_type}(${r.category})`)).size).toBe(101);
    expect(new Set(records.map((r) => r.amc_name)).size).toBe(52);
    expect(new Set(records.map((r) => r.amc_code)).size).toBe(52);
    expect(records.filter((r) => r.isin_growth !== null)).toHaveLength(13476);
    expect(records.filter((r) => r.isin_reinvestment !== null)).toHaveLength(4526);
    expect(records.filter((r) => r.isin_growth === null && r.isin_reinvestment === null)).toHaveLength(174);
    expect(records.filter((r) => r.nav_date === '2026-08-21')).toHaveLength(8123);
    expect(records.filter((r) => r.nav === null)).toHaveLength(0);
  });

  it('reads a row with both ISINs and plan/option fields', () => {
    expect(newByCode.get('119551')).toEqual({
      scheme_code: '119551',
      isin_growth: 'INF209KA12Z1',
      isin_reinvestment: 'INF209KA13Z9',
      scheme_name: 'Aditya Birla Sun Life Banking & PSU Debt Fund',
      plan: 'DIRECT',
      option: 'IDCW_REINVESTMENT',
      nav: '106.8821',
      nav_date: '2026-08-21',
      amc_name: 'Aditya Birla Sun Life Mutual Fund',
      amc_code: 'ADITYA_BIRLA_SUN_LIFE',
      category: 'Debt Scheme - Banking and PSU Fund',
      scheme_type: 'Open Ended Schemes',
    } satisfies AmfiSchemeRecord);
  });

  it("maps a '-' ISIN to null", () => {
    expect(newByCode.get('120437')).toEqual({
      scheme_code: '120437',
      isin_growth: null,
      isin_reinvestment: 'INF846K01CU0',
      scheme_name: 'Axis Banking & PSU Debt Fund',
      plan: 'DIRECT',
      option: 'IDCW',
      nav: '1035.1701',
      nav_date: '2026-08-21',
      amc_name: 'Axis Mutual Fund',
      amc_code: 'AXIS',
      category: 'Debt Scheme - Banking and PSU Fund',
      scheme_type: 'Open Ended Schemes',
    } satisfies AmfiSchemeRecord);
  });

  it('reads a close-ended row with a "Redeemed" ISIN, a stale date and an AMC line with parentheses', () => {
    expect(newByCode.get('130565')).toEqual({
      scheme_code: '130565',
      isin_growth: 'INF613Q01025',
      isin_reinvestment: null,
      scheme_name: 'IL&FS Infrastructure Debt Fund Series 1A',
      plan: null,
      option: null,
      nav: '1680494.0463',
      nav_date: '2018-12-31',
      amc_name: 'IL&FS Mutual Fund (IDF)',
      amc_code: 'IL_FS_IDF',
      category: 'Income',
      scheme_type: 'Close Ended Schemes',
    } satisfies AmfiSchemeRecord);
  });

  it('reads an interval fund row with empty plan/option fields', () => {
    expect(newByCode.get('105660')).toEqual({
      scheme_code: '105660',
      isin_growth: 'INF204K01ED4',
      isin_reinvestment: 'INF204K01EE2',
      scheme_name: 'Nippon India Interval Fund Annual Interval Fund Series-I',
      plan: null,
      option: null,
      nav: '13.3009',
      nav_date: '2026-04-22',
      amc_name: 'Nippon India Mutual Fund',
      amc_code: 'NIPPON_INDIA',
      category: 'Income',
      scheme_type: 'Interval Fund Schemes',
    } satisfies AmfiSchemeRecord);
  });

  it('handles odd cells: non-ISIN placeholders, trailing spaces and tabs, "10." NAVs', () => {
    expect(newByCode.get('152713')).toMatchObject({ isin_reinvestment: null }); // "HDFCNIVODG"
    expect(newByCode.get('133786')).toMatchObject({ isin_growth: null, isin_reinvestment: 'INF178L01BT0' }); // "INF178L01BT0 "
    expect(newByCode.get('119163')).toMatchObject({ plan: 'DIRECT', option: 'IDCW_REINVESTMENT' }); // "Daily IDCW - ReInvestment\t"
    expect(newByCode.get('150939')).toMatchObject({ nav: '10', nav_date: '2026-04-30' }); // "10."
  });

  it('takes the plan from the option text when the plan field is empty, and leaves it null otherwise', () => {
    expect(newByCode.get('154684')).toMatchObject({ plan: 'REGULAR', option: 'GROWTH' }); // ";;SG 2 Regular Growth;"
    expect(newByCode.get('138283')).toMatchObject({ scheme_name: 'PGIM India Liquid Fund', plan: null, option: null });
  });

  it('keeps the AMC when a section line is not followed by an AMC line', () => {
    expect(newByCode.get('154437')).toMatchObject({
      amc_code: 'ZERODHA',
      category: 'Life Cycle Funds - Life Cycle Fund with Maturity of 15 Years',
    });
    expect(newByCode.get('106183')).toMatchObject({
      amc_code: 'UTI',
      scheme_type: 'Close Ended Schemes',
      category: 'Income/Debt Oriented Schemes - Other Debt Scheme',
    });
  });

  it('strips CRLF and keeps UTF-8 text intact', () => {
    const untrimmed = newFile.records.flatMap((record) =>
      Object.values(record).filter((value) => typeof value === 'string' && /[\r\n\t]|^\s|\s$/.test(value)),
    );
    expect(untrimmed).toEqual([]);
    expect(newFile.records.filter((record) => !/^\d{4}-\d{2}-\d{2}$/.test(record.nav_date ?? ''))).toEqual([]);
    expect(newByCode.get('135762')?.category).toBe('Solution Oriented Scheme - Children\u2019s Fund');
    expect(newByCode.get('126677')?.scheme_name).toBe('ICICI Prudential Equity Savings Fund \u2013 Series 1');
  });
});

describe('OLD format file (NAVAll-2026-08-18-old-format.txt)', () => {
  it('detects the format and reads every data line', () => {
    expect(oldFile.format).toBe('OLD');
    expect(oldFile.records).toHaveLength(14280);
    expect(oldFile.skipped).toEqual([]);
    expect(oldByCode.size).toBe(14280);
  });

  it('matches independently counted totals', () => {
    const { records } = oldFile;
    expect(countBy(records, (r) => r.scheme_type)).toEqual({
      'Open Ended Schemes': 9528,
      'Close Ended Schemes': 4711,
      'Interval Fund Schemes': 41,
    });
    expect(new Set(records.map((r) => `${r.scheme_type}(${r.category})`)).size).toBe(93);
    expect(new Set(records.map((r) => r.amc_code)).size).toBe(52);
    expect(records.filter((r) => r.isin_growth !== null)).toHaveLength(13468);
    expect(records.filter((r) => r.isin_reinvestment !== null)).toHaveLength(4526);
    expect(records.filter((r) => r.nav_date === '2026-08-18')).toHaveLength(8241);
    expect(records.filter((r) => r.nav === null)).toHaveLength(0);
  });

  it('reads a row and derives plan and option from the scheme name', () => {
    expect(oldByCode.get('119550')).toEqual({
      scheme_code: '119550',
      isin_growth: 'INF209K01YN0',
      isin_reinvestment: null,
      scheme_name: 'Aditya Birla Sun Life Banking & PSU Debt Fund- Direct Plan-Growth',
      plan: 'DIRECT',
      option: 'GROWTH',
      nav: '404.6081',
      nav_date: '2026-08-18',
      amc_name: 'Aditya Birla Sun Life Mutual Fund',
      amc_code: 'ADITYA_BIRLA_SUN_LIFE',
      category: 'Debt Scheme - Banking and PSU Fund',
      scheme_type: 'Open Ended Schemes',
    } satisfies AmfiSchemeRecord);
    expect(oldByCode.get('128952')).toEqual({
      scheme_code: '128952',
      isin_growth: 'INF846K01NF8',
      isin_reinvestment: null,
      scheme_name: 'Axis Banking & PSU Debt Fund - Direct Plan - Bonus Option',
      plan: 'DIRECT',
      option: 'BONUS',
      nav: '1532.8272',
      nav_date: '2017-06-14',
      amc_name: 'Axis Mutual Fund',
      amc_code: 'AXIS',
      category: 'Debt Scheme - Banking and PSU Fund',
      scheme_type: 'Open Ended Schemes',
    } satisfies AmfiSchemeRecord);
  });

  it.each([
    ['119553', 'Aditya Birla Sun Life Banking & PSU Debt Fund  - Direct - Quarterly IDCW', 'DIRECT', 'IDCW'],
    ['100354', 'ICICI Prudential ELSS Tax Saver Fund - Growth', null, 'GROWTH'],
    ['150572', 'Sundaram Flexicap Fund Direct Plan IDCW Reinvestment', 'DIRECT', 'IDCW_REINVESTMENT'],
    ['130565', 'IL&FS Infrastructure Debt Fund Series 1A - Dividend payout option', null, 'IDCW_PAYOUT'],
    ['118666', 'NIPPON INDIA GROWTH MID CAP FUND - DIRECT Plan - IDCW Option', 'DIRECT', 'IDCW'],
    ['118665', 'Nippon India Growth Mid Cap Fund - Direct Plan Growth Plan - Bonus Option', 'DIRECT', 'BONUS'],
    ['101818', 'Aditya Birla Sun Life Regular Savings Fund - Growth / Payment - Regular Plan', 'REGULAR', 'GROWTH'],
    ['120705', 'Aditya Birla Sun Life Regular Savings Fund - Growth / Payment - Direct Plan', 'DIRECT', 'GROWTH'],
    ['119507', 'Aditya Birla Sun Life Dividend Yield Fund - Growth - Direct Plan', 'DIRECT', 'GROWTH'],
    ['138283', 'PGIM India Insta Cash Fund-Institutional Plan-Daily Dividend', null, 'IDCW'],
    ['152713', 'HDFC NIFTY100 Low Volatility 30 Index Fund - Direct Plan', 'DIRECT', null],
  ])('%s "%s" -> plan %s, option %s', (code, name, plan, option) => {
    expect(oldByCode.get(code)).toMatchObject({ scheme_name: name, plan, option });
  });
});

describe('both formats', () => {
  it.each(['108273', '119550', '120438', '122639'])('give the same scheme %s', (code) => {
    const identity = ({ nav: _nav, nav_date: _date, scheme_name: _name, ...rest }: AmfiSchemeRecord) => rest;
    const fromNew = newByCode.get(code);
    const fromOld = oldByCode.get(code);
    expect(fromNew).toBeDefined();
    expect(identity(fromOld!)).toEqual(identity(fromNew!));
  });

  it('agree on ISINs and AMCs for all shared scheme codes', () => {
    const shared = oldFile.records.filter((record) => newByCode.has(record.scheme_code));
    expect(shared).toHaveLength(14252);
    const isinChanged = shared
      .filter((o) => {
        const n = newByCode.get(o.scheme_code)!;
        return o.isin_growth !== n.isin_growth || o.isin_reinvestment !== n.isin_reinvestment;
      })
      .map((o) => o.scheme_code)
      .sort();
    // Four new Franklin schemes had '-' ISINs on 2026-08-18 and real ones on 2026-08-21.
    expect(isinChanged).toEqual(['154538', '154539', '154540', '154541']);
    expect(shared.every((o) => o.amc_code === newByCode.get(o.scheme_code)!.amc_code)).toBe(true);
  });

  it("derive the OLD plan/option from names consistently with the NEW format's fields", () => {
    const agreement = (key: 'plan' | 'option') => {
      const stated = oldFile.records.filter((o) => o[key] !== null && newByCode.get(o.scheme_code)?.[key]);
      const same = stated.filter((o) => o[key] === newByCode.get(o.scheme_code)![key]);
      return same.length / stated.length;
    };
    // Not 100%: the NEW fields are sometimes more specific ("Monthly IDCW Payout" for "- IDCW") or plainly wrong
    // (153755 "Regular Plan-Growth" in the old name, an IDCW payout option in the new fields).
    expect(agreement('plan')).toBeGreaterThan(0.995);
    expect(agreement('option')).toBeGreaterThan(0.96);
  });
});

describe('streaming', () => {
  it('gives the same result for small chunks that split lines', async () => {
    const streamed = await collectNavAll(createReadStream(NEW_FILE, { highWaterMark: 257 }));
    expect(streamed).toEqual(newFile);
  });

  it('decodes a UTF-8 character split across Buffer chunks', async () => {
    const text = `${NEW_HEADER}\r\nOpen Ended Schemes(Solution Oriented Scheme - Children\u2019s Fund)\r\nX Mutual Fund\r\n`;
    const bytes = Buffer.from(`${text}1;-;-;Y Fund;Direct Plan;Growth;1.0;21-Aug-2026\r\n`);
    const splitAt = bytes.indexOf(0xe2) + 1; // inside the 3-byte U+2019
    const result = await collectNavAll(chunks(bytes.subarray(0, splitAt), bytes.subarray(splitAt)));
    expect(result.records[0]?.category).toBe('Solution Oriented Scheme - Children\u2019s Fund');
  });

  it('yields records before the input has been read to the end', async () => {
    async function* neverEnding(): AsyncGenerator<string> {
      yield `${NEW_HEADER}\r\n \r\nOpen Ended Schemes(Debt Scheme - Liquid Fund)\r\n \r\nAxis Mutual Fund\r\n`;
      yield '120389;INF846K01CX4;-;Axis Liquid Fund;Direct Plan;Growth Option;3012.3456;21-Aug-2026\r\n';
      throw new Error('read past the first record');
    }
    const first = await parseNavAll(neverEnding()).next();
    expect(first.value).toMatchObject({ scheme_code: '120389', amc_code: 'AXIS', category: 'Debt Scheme - Liquid Fund' });
  });

  it('reads LF-only input like CRLF input', async () => {
    const crlf = (await readFile(OLD_FILE, 'utf8')).split('\n').slice(0, 2000).join('\n');
    const lf = crlf.replaceAll('\r\n', '\n');
    expect(crlf).toContain('\r\n');
    const [fromCrlf, fromLf] = await Promise.all([parseText(crlf), parseText(lf)]);
    expect(fromCrlf.records.length).toBeGreaterThan(1500);
    expect(fromLf).toEqual(fromCrlf);
  });
});

describe('synthetic input', () => {
  const sectionAndAmc = 'Open Ended Schemes(Equity Scheme - ELSS)\r\n \r\nAxis Mutual Fund\r\n \r\n';

  it("maps 'N.A.' NAVs and dates and '-' ISINs to null", async () => {
    const result = await parseText(
      `${NEW_HEADER}\r\n${sectionAndAmc}120503;-;-;Axis ELSS Tax Saver Fund;Direct Plan;Growth;N.A.;N.A.\r\n`,
    );
    expect(result.skipped).toEqual([]);
    expect(result.records).toEqual([
      {
        scheme_code: '120503',
        isin_growth: null,
        isin_reinvestment: null,
        scheme_name: 'Axis ELSS Tax Saver Fund',
        plan: 'DIRECT',
        option: 'GROWTH',
        nav: null,
        nav_date: null,
        amc_name: 'Axis Mutual Fund',
        amc_code: 'AXIS',
        category: 'Equity Scheme - ELSS',
        scheme_type: 'Open Ended Schemes',
      },
    ]);
  });

  it('skips and reports malformed data lines, and keeps parsing', async () => {
    const lines = [
      OLD_HEADER, //                                                                  1
      '100001;INF000000001;-;Orphan Fund - Growth;10.0000;21-Aug-2026', //             2: before any section
      'Open Ended Schemes(Equity Scheme - Large Cap Fund)', //                         3
      'Example Mutual Fund', //                                                        4
      '100002;INF000000002;-;Too Few Fields;10.0000', //                               5
      'ABC123;INF000000003;-;Bad Code Fund - Growth;10.0000;21-Aug-2026', //           6
      '100004;INF000000004;-;Bad NAV Fund - Growth;12,50;21-Aug-2026', //              7
      '100005;INF000000005;-;Bad Date Fund - Growth;10.0000;31-Feb-2026', //           8
      '100006;INF000000006;-;ISO Date Fund - Growth;10.0000;2026-08-21', //            9
      '100007;INF000000007;-;;10.0000;21-Aug-2026', //                                 10
      '100008;INF000000008;-;Good Fund - Direct Plan - Growth;10.5000;1-aug-2026', //  11
    ];
    const result = await parseText(lines.join('\r\n'));
    expect(result.skipped).toEqual([
      { line: 2, reason: 'data line before a section and AMC line' },
      { line: 5, reason: 'expected 6 fields, found 5' },
      { line: 6, reason: 'invalid scheme code "ABC123"' },
      { line: 7, reason: 'invalid NAV "12,50"' },
      { line: 8, reason: 'invalid date "31-Feb-2026"' },
      { line: 9, reason: 'invalid date "2026-08-21"' },
      { line: 10, reason: 'empty scheme name' },
    ]);
    expect(result.records).toEqual([
      {
        scheme_code: '100008',
        isin_growth: 'INF000000008',
        isin_reinvestment: null,
        scheme_name: 'Good Fund - Direct Plan - Growth',
        plan: 'DIRECT',
        option: 'GROWTH',
        nav: '10.5000',
        nav_date: '2026-08-01',
        amc_name: 'Example Mutual Fund',
        amc_code: 'EXAMPLE',
        category: 'Equity Scheme - Large Cap Fund',
        scheme_type: 'Open Ended Schemes',
      },
    ]);
  });

  it('skips NEW-layout rows under an OLD header', async () => {
    const result = await parseText(
      `${OLD_HEADER}\r\n${sectionAndAmc}120503;INF846K01EW2;-;Axis ELSS Tax Saver Fund;Direct Plan;Growth;100.1;21-Aug-2026\r\n`,
    );
    expect(result.records).toEqual([]);
    expect(result.skipped).toEqual([{ line: 6, reason: 'expected 6 fields, found 8' }]);
  });

  it('accepts a header with a byte order mark', async () => {
    const result = await collectNavAll(chunks(Buffer.from(`\uFEFF${NEW_HEADER}\r\n`, 'utf8')));
    expect(result).toEqual({ format: 'NEW', records: [], skipped: [] });
  });

  it('rejects an unknown header with a clear error', async () => {
    const result = parseText('Code;ISIN;Name;NAV;Date\r\n100001;INF000000001;X;1;21-Aug-2026\r\n');
    await expect(result).rejects.toThrow(NavAllHeaderError);
    await expect(parseText('Code;ISIN;Name;NAV;Date\r\n')).rejects.toThrow(/unrecognised NAVAll header/);
  });

  it('rejects empty input', async () => {
    await expect(parseText('')).rejects.toThrow(/empty/);
  });
});

describe('helpers', () => {
  it.each([
    ['Aditya Birla Sun Life Mutual Fund', 'ADITYA_BIRLA_SUN_LIFE'],
    ['IL&FS Mutual Fund (IDF)', 'IL_FS_IDF'],
    ['360 ONE Mutual Fund', '360_ONE'],
    ['quant Mutual Fund', 'QUANT'],
    ['Mutual Fund', 'MUTUAL_FUND'],
  ])('amcCodeFromName(%j) = %j', (name, code) => {
    expect(amcCodeFromName(name)).toBe(code);
  });

  it.each([
    ['21-Aug-2026', '2026-08-21'],
    ['1-jan-2024', '2024-01-01'],
    ['29-Feb-2024', '2024-02-29'],
    ['29-Feb-2026', undefined],
    ['21-Foo-2026', undefined],
    ['N.A.', null],
    ['', null],
  ])('parseNavDate(%j) = %j', (text, iso) => {
    expect(parseNavDate(text)).toBe(iso);
  });
});
