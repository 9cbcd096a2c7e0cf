// The path and query of the page being rendered, as proxy.ts saw it: a server component cannot
// read its own URL, and the console's sign-in redirect needs it to come back to a deep link.
// proxy.ts sets the header on every page request (a client's own value is overwritten), and the
// login page still accepts only same-origin paths (lib/auth/callback-url.ts).
export const pagePathHeader = "x-reelbind-page-path";
