import { describe, expect, it } from "vitest";
import { fontFaceOf } from "./fonts";

describe("fontFaceOf", () => {
  it.each([
    [{ fName: "Sans-Regular", fFamily: "Helvetica Neue, Arial, sans-serif", fStyle: "Regular" }, "regular"],
    [{ fName: "Sans-Bold", fFamily: "Helvetica Neue, Arial, sans-serif", fStyle: "Bold" }, "bold"],
    [{ fName: "Montserrat-SemiBold", fFamily: "Montserrat", fStyle: "SemiBold" }, "bold"],
    [{ fName: "Inter-Semibold", fFamily: "Inter", fStyle: "Semibold" }, "bold"],
    [{ fName: "Roboto-ExtraBold", fFamily: "Roboto", fStyle: "Extra Bold" }, "bold"],
    [{ fName: "Roboto-Black", fFamily: "Roboto", fStyle: "Black" }, "bold"],
    [{ fName: "Roboto-Medium", fFamily: "Roboto", fStyle: "Medium" }, "regular"],
    [{ fName: "Roboto-Light", fFamily: "Roboto", fStyle: "Light" }, "regular"],
    [{ fName: "Roboto-Italic", fFamily: "Roboto", fStyle: "Italic" }, "oblique"],
    [{ fName: "Arial-ObliqueMT", fFamily: "Arial", fStyle: "Oblique" }, "oblique"],
    [{ fName: "Roboto-BoldItalic", fFamily: "Roboto", fStyle: "Bold Italic" }, "boldOblique"],
    [{ fName: "Montserrat-SemiBoldItalic", fFamily: "Montserrat", fStyle: "SemiBold Italic" }, "boldOblique"],
    // No weight in fStyle: fName says it.
    [{ fName: "Brand-Bold", fFamily: "Brand", fStyle: "" }, "bold"],
    [{ fName: "Brand-BoldItalic", fFamily: "Brand" }, "boldOblique"],
    // fStyle wins over fName when it names a weight.
    [{ fName: "Odd-Bold", fFamily: "Odd", fStyle: "Regular" }, "regular"],
    // A numeric weight: 600 and up is bold.
    [{ fName: "Var", fFamily: "Var", fStyle: "", fWeight: "700" }, "bold"],
    [{ fName: "Var", fFamily: "Var", fStyle: "Bold", fWeight: 400 }, "regular"],
    [{ fName: "Var", fFamily: "Var", fStyle: "", fWeight: "" }, "regular"],
    [{}, "regular"],
  ])("fontFaceOf – %o → %s", (font, face) => {
    expect(fontFaceOf(font)).toBe(face);
  });
});
