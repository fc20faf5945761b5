import { parse, type DefaultTreeAdapterMap } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** The bank's form as the exchange's page holds it: where it goes, how, and its fields in order. */
export interface BankForm {
  action: string;
  method: "post" | "get";
  fields: Array<{ name: string; value: string }>;
}

/** Where the investor continues to the bank: our page with the bank's form, or a plain redirect. */
export type BankTarget = { kind: "form"; form: BankForm } | { kind: "redirect"; url: string };

/** Inputs that carry no value of their own into a submission (buttons, files; unchecked boxes are dropped below). */
const NOT_SENT = new Set(["submit", "button", "image", "reset", "file"]);

/**
 * What the exchange answered as the bank's page (bse-starmf-services.md §9.2: the bank's page as HTML),
 * read for the one thing we show of it: the form that takes the investor to the bank. The HTML is parsed
 * as a browser would (parse5) and nothing else of it survives: scripts, meta refreshes, base, styles,
 * frames, text and event handlers are dropped. Null when it cannot be shown safely: no form or several,
 * an action that is not an absolute https address. A bare https address (the document's open point: a
 * URL in practice?) is a redirect.
 */
export function bankTargetOf(answer: string): BankTarget | null {
  const text = answer.trim();
  if (/^https:\/\/\S+$/i.test(text)) {
    const url = httpsUrl(text);
    return url ? { kind: "redirect", url: url.href } : null;
  }
  const forms = elements(parse(answer), "form");
  if (forms.length !== 1) return null;
  const form = forms[0]!;
  const action = httpsUrl(attribute(form, "action") ?? "");
  if (!action) return null;
  // As a browser reads it: POST only when it says so, GET otherwise (the attribute's default).
  const method = attribute(form, "method")?.trim().toLowerCase() === "post" ? "post" : "get";
  const fields: BankForm["fields"] = [];
  if (method === "get") {
    // A GET submission replaces the action's query with the form's fields: they go as fields instead.
    for (const [name, value] of action.searchParams) fields.push({ name, value });
    action.search = "";
  }
  for (const element of elements(form, "input", "textarea")) {
    const name = attribute(element, "name");
    if (!name || attribute(element, "disabled") !== null) continue;
    if (element.tagName === "textarea") {
      fields.push({ name, value: textOf(element) });
      continue;
    }
    const type = (attribute(element, "type") ?? "text").toLowerCase();
    if (NOT_SENT.has(type) || ((type === "checkbox" || type === "radio") && attribute(element, "checked") === null)) continue;
    fields.push({ name, value: attribute(element, "value") ?? (type === "checkbox" || type === "radio" ? "on" : "") });
  }
  return { kind: "form", form: { action: action.href, method, fields } };
}

function httpsUrl(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === "https:" && url.username === "" && url.password === "" ? url : null;
  } catch {
    return null;
  }
}

/** The elements named `tags` under `root`, in document order (templates' contents are not the document's). */
function elements(root: Node, ...tags: string[]): Element[] {
  const found: Element[] = [];
  const visit = (node: Node) => {
    if ("tagName" in node && tags.includes(node.tagName)) found.push(node);
    if ("childNodes" in node && node.nodeName !== "template") for (const child of node.childNodes) visit(child as Node);
  };
  visit(root);
  return found;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((attr) => attr.name === name)?.value ?? null;
}

function textOf(element: Element): string {
  return element.childNodes.map((child) => ("value" in child && child.nodeName === "#text" ? child.value : "")).join("");
}
