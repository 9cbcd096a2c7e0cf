import { describe, expect, it } from "vitest";
import { escapeHtml, linkMessage } from "./index";

describe("linkMessage – plain text and escaped HTML", () => {
  it("every part is text in the HTML: markup in a name or a link is escaped, the link is the button's href and its plain-text line", () => {
    const message = linkMessage({
      to: "a@example.com",
      subject: "Hi",
      paragraphs: [`<script>alert(1)</script> & "Co" invited you`],
      link: `https://video.example.com/invitations/rbi_x"><img src=x>`,
      linkLabel: "Accept",
      after: ["Ignore it otherwise."],
    });
    expect(message.text).toBe(`<script>alert(1)</script> & "Co" invited you\n\nhttps://video.example.com/invitations/rbi_x"><img src=x>\n\nIgnore it otherwise.\n`);
    expect(message.html).not.toMatch(/<script>|<img/);
    expect(message.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; invited you");
    expect(message.html).toContain(`href="https://video.example.com/invitations/rbi_x&quot;&gt;&lt;img src=x&gt;"`);
  });

  it("escapeHtml – the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});
