import { exportFilename, slugify } from './export-filename.js';

describe('export file names', () => {
  it('slugs a form name to lower-case ASCII words', () => {
    expect(slugify('Contact us! (Été)')).toBe('contact-us-ete');
    expect(slugify('  --Newsletter  Sign-up--  ')).toBe('newsletter-sign-up');
  });

  it('falls back to "form" when nothing is left, and cannot inject a quote', () => {
    expect(slugify('日本語')).toBe('form');
    expect(slugify('"; rm -rf')).toBe('rm-rf');
  });

  it('caps the slug length', () => {
    expect(slugify('a'.repeat(100))).toHaveLength(60);
  });

  it('names the file after the form, the kind and the UTC date', () => {
    expect(
      exportFilename('Leads', 'csv', new Date('2025-05-01T23:30:00Z')),
    ).toBe('leads-submissions-2025-05-01.csv');
  });
});
