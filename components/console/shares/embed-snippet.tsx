import { CopyButton } from "@/components/console/copy-button";
import { playedData } from "@/shared/templates/data-rules";

// The code a developer copies to put this share on their own site: the SDK with the public
// share, and the server-side call that mints an embed session (personalized per viewer). Its
// data is the share's own personalization data (what the landing page plays), so pasting the
// code shows what the share shows; a share without data gets no data block, and plays as is.

function Snippet({ title, code, hint }: { title: string; code: string; hint?: string }) {
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <CopyButton value={code} label="Copy code" />
      </div>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {/* Focusable, so a keyboard can scroll a long line into view. */}
      <pre tabIndex={0} aria-label={`${title} code`} className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600 rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}

export function EmbedSnippet({ baseUrl, slug, channel, data }: { baseUrl: string; slug: string; channel: string; data: Record<string, unknown> | null }) {
  // What the share plays (strings; numbers as their text), with "<" escaped so that no value can end the <script>.
  const played = playedData(data);
  const json = Object.keys(played).length > 0 ? JSON.stringify(played).replaceAll("<", "\\u003c") : null;
  const page = `<div id="reelbind-video" style="aspect-ratio: 16 / 9; max-width: 640px"></div>
<script src="${baseUrl}/sdk/player-embed.global.js"></script>
<script>
  const player = Reelbind.embed("#reelbind-video", {
    share: "${slug}",${json ? `\n    data: ${json},` : ""}
    onCta: (message) => console.log("CTA clicked", message),
  });
</script>`;
  const sessionData = json ? `, "personalizationData": ${shellQuoted(json)}` : "";
  const curl = `curl -s -X POST ${baseUrl}/api/embed-sessions -u "$API_KEY:$API_SECRET" \\
  -H 'Content-Type: application/json' \\
  -d '{"channel": "${channel}"${sessionData}, "allowedOrigins": ["https://www.example.com"]}'`;
  const node = `// On your server: never send the API secret to the browser.
const response = await fetch("${baseUrl}/api/embed-sessions", {
  method: "POST",
  headers: {
    Authorization: "Basic " + Buffer.from(\`\${process.env.API_KEY}:\${process.env.API_SECRET}\`).toString("base64"),
    "Content-Type": "application/json",
  },
  body: JSON.stringify({ channel: "${channel}", ${json ? `personalizationData: ${json}, ` : ""}allowedOrigins: ["https://www.example.com"] }),
});
const { token } = await response.json(); // pass it to the page: Reelbind.embed("#reelbind-video", { session: token })`;
  const dataHint = json
    ? "With this share's personalization data; change it per viewer (it overrides the share's)."
    : "The share has no personalization data: it plays the template's defaults. Add data: {…} to personalize it per viewer.";
  return (
    <div className="space-y-5">
      <Snippet title="On your page" code={page} hint={`The public share. ${dataHint}`} />
      <Snippet title="Embed session (curl)" code={curl} hint="Personalized and limited to your site's origins: mint it on your server with this share's API credential." />
      <Snippet title="Embed session (Node.js)" code={node} />
    </div>
  );
}

/** JSON inside the curl command's single-quoted body: a quote ends the shell string, so it is written '\'' . */
function shellQuoted(json: string): string {
  return json.replaceAll("'", "'\\''");
}
