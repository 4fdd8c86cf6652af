// A notice after a post, placed inside the section of the page it is about. The redirect
// lands on that section's anchor, so the notice is where the owner looks, not at the top
// of a long page (the layout's notice is for pages that land at the top).

export interface SectionNotice {
  /** The id of the section (its anchor) the notice sits in. */
  section: string;
  text: string;
}
