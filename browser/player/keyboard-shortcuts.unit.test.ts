import { describe, expect, it } from "vitest";
import { shortcutFor, type KeyPress, type Shortcut } from "./keyboard-shortcuts";

describe("shortcutFor", () => {
  it.each<{ press: KeyPress; expected: Shortcut | null }>([
    { press: { key: " ", targetTag: "BODY" }, expected: "togglePlay" },
    { press: { key: " ", targetTag: "INPUT" }, expected: "togglePlay" },
    { press: { key: " ", targetTag: "BUTTON" }, expected: null },
    { press: { key: "k", targetTag: "BUTTON" }, expected: "togglePlay" },
    { press: { key: "K" }, expected: "togglePlay" },
    { press: { key: "ArrowLeft", targetTag: "INPUT" }, expected: "seekBack" },
    { press: { key: "ArrowRight" }, expected: "seekForward" },
    { press: { key: "m" }, expected: "toggleMute" },
    { press: { key: "F" }, expected: "toggleFullscreen" },
    { press: { key: "c", targetTag: "BUTTON" }, expected: "toggleCaptions" },
    { press: { key: "C" }, expected: "toggleCaptions" },
    { press: { key: "c", ctrlKey: true }, expected: null },
    { press: { key: "f", ctrlKey: true }, expected: null },
    { press: { key: "ArrowLeft", altKey: true }, expected: null },
    { press: { key: "k", metaKey: true }, expected: null },
    { press: { key: "Enter" }, expected: null },
    { press: { key: "x" }, expected: null },
  ])("$press.key on $press.targetTag → $expected", ({ press, expected }) => {
    expect(shortcutFor(press)).toBe(expected);
  });
});
