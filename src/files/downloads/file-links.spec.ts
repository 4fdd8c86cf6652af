import { describe, expect, it } from 'vitest';
import { DownloadLinks } from './download-links.js';
import { mayHoldFiles, withDownloadLinks } from './file-links.js';

const links = new DownloadLinks(
  'a-test-secret-that-is-long-enough-0123456789',
  'https://forms.example.com',
);
const now = new Date('2026-11-25T10:00:00Z');
const cv = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  name: 'cv.pdf',
  size: 10,
  type: 'application/pdf',
  sha256: 'ab',
};
const photo = {
  id: 'BBBBBBBBBBBBBBBBBBBBBB',
  name: 'me.png',
  size: 20,
  type: 'image/png',
  sha256: 'cd',
};

describe('withDownloadLinks', () => {
  it('adds a signed url to each stored file, single or in an array, and leaves other values', () => {
    const data = { name: 'Ada', cv, photos: [photo], tags: ['a', 'b'] };
    const linked = withDownloadLinks(
      data,
      new Set([cv.id, photo.id]),
      links,
      now,
    );
    expect(linked).toEqual({
      name: 'Ada',
      cv: { ...cv, url: links.url(cv.id, now) },
      photos: [{ ...photo, url: links.url(photo.id, now) }],
      tags: ['a', 'b'],
    });
    expect(
      links.verify((linked.cv as { url: string }).url.split('/files/')[1], now),
    ).toBe(cv.id);
    // The stored data is not changed.
    expect(data.cv).not.toHaveProperty('url');
  });

  it('gives no link to a value shaped like a file that is not stored for the submission', () => {
    const data = { cv, other: photo };
    expect(withDownloadLinks(data, new Set([cv.id]), links, now)).toEqual({
      cv: { ...cv, url: links.url(cv.id, now) },
      other: photo,
    });
    expect(withDownloadLinks(data, undefined, links, now)).toBe(data);
  });

  it('tells which data may hold files', () => {
    expect(mayHoldFiles({ cv })).toBe(true);
    expect(mayHoldFiles({ photos: [photo] })).toBe(true);
    expect(mayHoldFiles({ name: 'Ada', tags: ['x'], n: 1, o: null })).toBe(
      false,
    );
  });
});
