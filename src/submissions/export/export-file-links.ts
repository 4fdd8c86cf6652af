// A CSV export shows each uploaded file as its name and a link a spreadsheet's user can
// open (docs/files.md). The files feature provides EXPORT_FILE_LINKS; the submissions
// feature depends only on this interface, so the dependency runs from files to
// submissions, never back.

export interface ExportFileLinks {
  /**
   * For the rows of one export batch: by submission id, a download link per stored file
   * id. A value merely shaped like a file (no stored file of that submission) gets none.
   */
  linksOf(
    rows: ReadonlyArray<{ id: string; data: unknown }>,
  ): Promise<FileLinksBySubmission>;
}

/** By submission id, then by file id: the link to download that file. */
export type FileLinksBySubmission = ReadonlyMap<
  string,
  ReadonlyMap<string, string>
>;

export const EXPORT_FILE_LINKS = Symbol('EXPORT_FILE_LINKS');
