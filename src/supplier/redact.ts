// the supplier's text is shown to people and logged; it must not carry back a secret it was
// sent (an api key, a secret key, a signature). Both wire interfaces scrub with this.

const REDACTED = "[redacted]";

/** a function that replaces each secret in a text; secrets under 4 characters are left alone */
export function redactor(secrets: readonly string[]): (text: string) => string {
  // too short a "secret" would redact ordinary words
  const kept = secrets.filter((s) => s.length >= 4);
  return (text) => kept.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}
