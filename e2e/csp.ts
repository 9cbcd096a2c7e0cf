// Reading Content-Security-Policy headers in the security specs.

/** The directives of a CSP header, by name. */
export function directives(csp: string): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const directive of csp.split(";")) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) parsed.set(name.toLowerCase(), sources);
  }
  return parsed;
}
