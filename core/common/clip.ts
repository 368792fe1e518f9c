/** Shortens input text quoted in a message: a 10 MB token must not become a 10 MB diagnostic. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
