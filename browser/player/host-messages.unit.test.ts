import { describe, expect, it } from "vitest";
import { acceptHostMessage, refusedOriginWarning, type HostMessageContext } from "./host-messages";

const parent = { name: "parent window" };
const stranger = { name: "another window" };
const host = "https://shop.example";

const beforeInit: HostMessageContext = { parent, allowedOrigins: null, parentOrigin: null };
const restricted: HostMessageContext = { parent, allowedOrigins: [host, "http://localhost:3000"], parentOrigin: null };
const afterInit: HostMessageContext = { parent, allowedOrigins: null, parentOrigin: host };

const init = { v: 1, type: "INIT" };

describe("acceptHostMessage – INIT", () => {
  it.each([
    { name: "from the parent, no origin list", source: parent, origin: host, data: init, context: beforeInit, accepted: true },
    { name: "origin in the list", source: parent, origin: host, data: init, context: restricted, accepted: true },
    { name: "origin with a port in the list", source: parent, origin: "http://localhost:3000", data: init, context: restricted, accepted: true },
    { name: "origin not in the list", source: parent, origin: "https://evil.example", data: init, context: restricted, accepted: false },
    { name: "origin differing by a trailing slash", source: parent, origin: `${host}/`, data: init, context: restricted, accepted: false },
    { name: "origin differing by case", source: parent, origin: "https://Shop.example", data: init, context: restricted, accepted: false },
    { name: "origin differing by port", source: parent, origin: "http://localhost:3001", data: init, context: restricted, accepted: false },
    { name: "opaque origin", source: parent, origin: "null", data: init, context: beforeInit, accepted: false },
    { name: "from another window", source: stranger, origin: host, data: init, context: beforeInit, accepted: false },
    { name: "without a source", source: null, origin: host, data: init, context: beforeInit, accepted: false },
    { name: "without v", source: parent, origin: host, data: { type: "INIT" }, context: beforeInit, accepted: false },
    { name: "v 2", source: parent, origin: host, data: { v: 2, type: "INIT" }, context: beforeInit, accepted: false },
    { name: 'v "1"', source: parent, origin: host, data: { v: "1", type: "INIT" }, context: beforeInit, accepted: false },
    { name: "type in lower case", source: parent, origin: host, data: { v: 1, type: "init" }, context: beforeInit, accepted: false },
    { name: "a second INIT, same origin", source: parent, origin: host, data: init, context: afterInit, accepted: false },
    { name: "not an object", source: parent, origin: host, data: "INIT", context: beforeInit, accepted: false },
    { name: "an array", source: parent, origin: host, data: [init], context: beforeInit, accepted: false },
  ])("$name → accepted: $accepted", ({ source, origin, data, context, accepted }) => {
    expect(acceptHostMessage({ source, origin, data }, context)?.type === "INIT").toBe(accepted);
  });

  it("keeps string data only and reads autoplay and muted as booleans", () => {
    const data = { v: 1, type: "INIT", data: { name: "Ada", age: 36, nested: { a: "b" }, empty: "" }, autoplay: "yes", muted: true, extra: 1 };
    expect(acceptHostMessage({ source: parent, origin: host, data }, beforeInit)).toEqual({
      v: 1,
      type: "INIT",
      data: { name: "Ada", empty: "" },
      autoplay: false,
      muted: true,
    });
  });

  it("keeps a __proto__ key as plain data", () => {
    const data = JSON.parse('{"v":1,"type":"INIT","data":{"__proto__":"x"}}');
    const command = acceptHostMessage({ source: parent, origin: host, data }, beforeInit);
    expect(command?.type === "INIT" && Object.getPrototypeOf(command.data)).toBe(Object.prototype);
    expect(command?.type === "INIT" && Object.keys(command.data ?? {})).toEqual(["__proto__"]);
  });
});

describe("acceptHostMessage – commands", () => {
  it.each([
    { name: "PLAY", data: { v: 1, type: "PLAY", extra: true }, expected: { v: 1, type: "PLAY" } },
    { name: "PAUSE", data: { v: 1, type: "PAUSE" }, expected: { v: 1, type: "PAUSE" } },
    { name: "SEEK", data: { v: 1, type: "SEEK", positionMs: 1500 }, expected: { v: 1, type: "SEEK", positionMs: 1500 } },
    { name: "SEEK with a string position", data: { v: 1, type: "SEEK", positionMs: "1500" }, expected: null },
    { name: "SEEK with NaN", data: { v: 1, type: "SEEK", positionMs: Number.NaN }, expected: null },
    { name: "MUTE", data: { v: 1, type: "MUTE", muted: false }, expected: { v: 1, type: "MUTE", muted: false } },
    { name: "MUTE with a string", data: { v: 1, type: "MUTE", muted: "true" }, expected: null },
    {
      name: "SET_DATA keeps the string values",
      data: { v: 1, type: "SET_DATA", data: { name: "Ada", n: 1, flag: true } },
      expected: { v: 1, type: "SET_DATA", data: { name: "Ada" } },
    },
    { name: "SET_DATA without data", data: { v: 1, type: "SET_DATA" }, expected: null },
    { name: "SET_DATA with an array", data: { v: 1, type: "SET_DATA", data: ["Ada"] }, expected: null },
    { name: "an unknown type", data: { v: 1, type: "STOP" }, expected: null },
    { name: "PLAY without v", data: { type: "PLAY" }, expected: null },
    { name: "null", data: null, expected: null },
  ])("$name", ({ data, expected }) => {
    expect(acceptHostMessage({ source: parent, origin: host, data }, afterInit)).toEqual(expected);
  });

  it.each([
    { name: "before INIT", source: parent, origin: host, context: beforeInit },
    { name: "from another origin", source: parent, origin: "https://evil.example", context: afterInit },
    { name: "from another window with the parent's origin", source: stranger, origin: host, context: afterInit },
  ])("PLAY $name → ignored", ({ source, origin, context }) => {
    expect(acceptHostMessage({ source, origin, data: { v: 1, type: "PLAY" } }, context)).toBeNull();
  });
});

describe("refusedOriginWarning", () => {
  it("names the origin of an INIT refused for it", () => {
    expect(refusedOriginWarning({ source: parent, origin: "https://evil.example", data: init }, restricted)).toBe(
      "Reelbind player: INIT from https://evil.example ignored: the embed session's allowed origins do not include it.",
    );
  });

  it.each([
    { name: "an INIT the list allows", source: parent, origin: host, data: init, context: restricted },
    { name: "no origin list", source: parent, origin: "https://evil.example", data: init, context: beforeInit },
    { name: "after the first INIT", source: parent, origin: "https://evil.example", data: init, context: { ...restricted, parentOrigin: host } },
    { name: "from another window", source: stranger, origin: "https://evil.example", data: init, context: restricted },
    { name: "not an INIT", source: parent, origin: "https://evil.example", data: { v: 1, type: "PLAY" }, context: restricted },
    { name: "another version", source: parent, origin: "https://evil.example", data: { v: 2, type: "INIT" }, context: restricted },
  ])("stays silent for $name", ({ source, origin, data, context }) => {
    expect(refusedOriginWarning({ source, origin, data }, context)).toBeNull();
  });
});
