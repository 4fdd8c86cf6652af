// The content rules of a form's spam filter, compiled once per form configuration (the
// submit path caches the result with the form): too many links, a blocked word. The
// duplicate rule needs the database and lives in duplicate-checker.ts. No pattern here is
// built from an owner's words: values and blocked words are cut into words once, and
// the blocked ones are looked up in a tree of words, so the work is linear in the
// submission whatever the owner typed.
import type {
  SpamFilterSettings,
  SpamReason,
} from '../forms/settings/spam-settings.js';
import type { SubmissionData } from '../submissions/submission.entity.js';

/**
 * The start of a link: `http://`, `https://` or `www.`, not in the middle of a word, an
 * address (`a@www.example.com`) or another link (`https://www.…` counts once).
 */
const LINK_START = /(?<![\p{L}\p{N}@./_-])(?:https?:\/\/|www\.)/giu;
/** What separates words: anything but letters, digits, marks and underscores. */
const WORD_SEPARATOR = /[^\p{L}\p{N}\p{M}_]+/u;

export interface ContentRules {
  /** The reasons the data is spam (empty when none applies). */
  readonly check: (data: SubmissionData) => SpamReason[];
  /** The duplicate rule is on (checked against stored submissions). */
  readonly duplicates: boolean;
}

/** Links in `text`, counting stops once past `limit`. */
export function countLinks(text: string, limit: number): number {
  LINK_START.lastIndex = 0;
  let count = 0;
  while (LINK_START.exec(text) !== null) {
    count += 1;
    if (count > limit) break;
  }
  return count;
}

/** The words of a text, lower-cased; punctuation and spaces only separate them. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().split(WORD_SEPARATOR).filter(Boolean);
}

/** Blocked phrases as a tree of words: a path from the root that ends a phrase. */
interface WordTree {
  next: Map<string, WordTree>;
  ends: boolean;
}

function wordTree(phrases: readonly string[]): WordTree | null {
  const root: WordTree = { next: new Map(), ends: false };
  let any = false;
  for (const phrase of phrases) {
    const words = wordsOf(phrase);
    if (words.length === 0) continue;
    any = true;
    let node = root;
    for (const word of words) {
      let child = node.next.get(word);
      if (child === undefined) {
        child = { next: new Map(), ends: false };
        node.next.set(word, child);
      }
      node = child;
    }
    node.ends = true;
  }
  return any ? root : null;
}

/** true when the words hold a blocked phrase, word for word. */
export function holdsPhrase(words: readonly string[], tree: WordTree): boolean {
  for (let start = 0; start < words.length; start += 1) {
    let node: WordTree | undefined = tree;
    for (let at = start; at < words.length; at += 1) {
      node = node.next.get(words[at]);
      if (node === undefined) break;
      if (node.ends) return true;
    }
  }
  return false;
}

/** true when `text` holds one of `phrases` as whole words, case-insensitively. */
export function containsBlocked(
  text: string,
  phrases: readonly string[],
): boolean {
  const tree = wordTree(phrases);
  return tree !== null && holdsPhrase(wordsOf(text), tree);
}

/** The compiled rules, or null when the filter is off. */
export function compileContentRules(
  settings: SpamFilterSettings,
): ContentRules | null {
  if (!settings.enabled) return null;
  const maxLinks = settings.maxLinks;
  const blocked = wordTree(settings.blockedWords);
  return {
    duplicates: settings.duplicates,
    check: (data) => {
      const reasons: SpamReason[] = [];
      let links = 0;
      let found = false;
      for (const key in data) {
        const value = data[key];
        if (typeof value !== 'string') continue;
        if (links <= maxLinks) links += countLinks(value, maxLinks - links);
        if (!found && blocked !== null) {
          found = holdsPhrase(wordsOf(value), blocked);
        }
      }
      if (links > maxLinks) reasons.push('too-many-links');
      if (found) reasons.push('blocked-word');
      return reasons;
    },
  };
}
