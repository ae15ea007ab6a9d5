/** How deep a value is searched; deeper bodies are refused by their own validation. */
const MAX_DEPTH = 64;

/** The path of the first string or key holding a NUL character (`a.b[0].c`), or null. */
export function fieldWithNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'value' : null;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes('\0')) return itemPath;
    const found = fieldWithNul(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const nulMessage = (field: string): string => `${field} must not contain a NUL character (U+0000)`;
