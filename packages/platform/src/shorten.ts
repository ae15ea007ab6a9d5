/** Cuts a text to `max` characters, marking the cut with an ellipsis, so a message never echoes a huge value whole. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
