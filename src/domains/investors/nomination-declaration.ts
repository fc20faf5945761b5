/**
 * The declaration an investor confirms on the consent page (/consents/{id}) to opt out of nomination. Its
 * version is stored with the evidence: change the text, change the version.
 */
export const DECLARATION_VERSION = "2025-12-v1";

export const DECLARATION_TITLE = "Declaration for opting out of nomination";

export const DECLARATION_PARAGRAPHS: readonly string[] = [
  "I do not wish to nominate anyone for the mutual fund units held in my name through this distributor.",
  "I understand that if I die without a nominee, the units and their proceeds will not pass to anyone simply on a " +
    "claim: my legal heirs will have to establish their title to them with the documents the fund house and the law " +
    "require (for example a succession certificate, a probate of a will, or letters of administration), which can " +
    "take time and cost money.",
  "I understand that I can add nominees at any time later, and that doing so replaces this declaration.",
  "I confirm this declaration myself, online, on this page.",
];
