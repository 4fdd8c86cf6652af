import { TooManyRequestsException } from '../../common/errors/errors.js';
import { UploadSlots } from './upload-slots.js';

describe('UploadSlots', () => {
  it('gives an address its slots, refuses the next, and takes back each once', () => {
    const slots = new UploadSlots(2);
    const first = slots.take('203.0.113.1');
    slots.take('203.0.113.1');
    expect(() => slots.take('203.0.113.1')).toThrow(TooManyRequestsException);
    // Another address has slots of its own.
    expect(() => slots.take('203.0.113.2')).not.toThrow();
    first();
    first();
    expect(slots.takenBy('203.0.113.1')).toBe(1);
    expect(() => slots.take('203.0.113.1')).not.toThrow();
    expect(slots.takenBy('203.0.113.1')).toBe(2);
  });

  it('forgets an address whose slots are all back', () => {
    const slots = new UploadSlots(1);
    const release = slots.take('::1');
    release();
    expect(slots.takenBy('::1')).toBe(0);
  });
});
