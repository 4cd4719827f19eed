/** A workspace member as a note's `@` may name them. */
export interface Mentionable {
  id: string;
  name: string;
  email: string;
}

/** More of a word after a handle: `@ana` in `@anabel` or `@ana.lima` is not Ana, while `@ana.` ends a sentence. */
const HANDLE_GOES_ON = /^([\p{L}\p{N}]|[._-][\p{L}\p{N}])/u;
/** An `@` inside a word (an email address in the note) mentions nobody. */
const WORD_BEFORE = /[\p{L}\p{N}._-]$/u;

/** The handles a member answers to: their name and their email's local part (`@ana` for ana@example.com). */
function handlesOf(member: Mentionable): string[] {
  const local = member.email.split('@')[0] ?? '';
  return [member.name.trim(), local].filter((handle) => handle.length > 0);
}

/**
 * The members a note mentions: `@` then a member's name or email local part, in any case, not
 * followed by more of a word. Where handles overlap (`@Ana` and `@Ana Lima`) the longest wins.
 */
export function mentionedIn(body: string, members: Mentionable[]): string[] {
  const handles = members
    .flatMap((member) => handlesOf(member).map((handle) => ({ id: member.id, handle: handle.toLowerCase() })))
    .sort((a, b) => b.handle.length - a.handle.length);
  const lower = body.toLowerCase();
  const found = new Set<string>();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (WORD_BEFORE.test(lower.slice(0, at))) continue;
    const rest = lower.slice(at + 1);
    const match = handles.find(
      ({ handle }) => rest.startsWith(handle) && !HANDLE_GOES_ON.test(rest.slice(handle.length)),
    );
    if (match) found.add(match.id);
  }
  return [...found];
}
