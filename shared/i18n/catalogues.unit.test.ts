import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { landingMessages } from "./landing-messages";
import { supportedLocales, type Catalogue } from "./locale";
import { playerMessages } from "./player-messages";

// Every catalogue has every English id in every locale, each a valid ICU message with the same
// arguments as the English one: a translation can neither lose a placeholder nor invent one.

type Element = ReturnType<IntlMessageFormat["getAst"]>[number];
/** The parser's element types without an argument name (its TYPE enum: literal 0, pound 7, tag 8). */
const literal = 0;
const pound = 7;
const tag = 8;

/** The argument names a message uses, plural and select ones included, sorted (the parse throws on bad ICU). */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type === literal || element.type === pound) continue;
      if (element.type === tag) {
        walk(element.children);
        continue;
      }
      names.add(element.value);
      if ("options" in element) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, "en").getAst());
  return [...names].sort();
}

const catalogues: Record<string, Catalogue<string>> = { playerMessages, landingMessages };

describe.each(Object.entries(catalogues))("%s", (_, catalogue) => {
  const ids = Object.keys(catalogue.en).sort();

  it.each(supportedLocales.filter((locale) => locale !== "en"))("%s has every English id, no other, and no untranslated blank", (locale) => {
    expect(Object.keys(catalogue[locale]).sort()).toEqual(ids);
    for (const id of ids) expect(catalogue[locale][id]?.trim(), `${locale} ${id}`).toBeTruthy();
  });

  it.each(supportedLocales)("%s: every message parses and uses the English message's arguments", (locale) => {
    for (const id of ids) expect(argumentsOf(catalogue[locale][id]!), `${locale} ${id}`).toEqual(argumentsOf(catalogue.en[id]!));
  });
});
