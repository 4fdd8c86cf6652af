import {
  applyOp,
  blankRow,
  fieldsFromRows,
  idFromLabel,
  opFromBody,
  rowsFromBody,
  rowsFromFields,
  typeLabel,
} from './form-editor.js';

const row = (id: string, extra: Partial<ReturnType<typeof blankRow>> = {}) => ({
  ...blankRow(),
  id,
  ...extra,
});

describe('fields editor', () => {
  it('reads numbered rows until the first missing one, checkboxes by presence', () => {
    const body = Object.assign(Object.create(null), {
      'f0.id': ' email ',
      'f0.type': 'email',
      'f0.required': 'on',
      'f1.id': 'topic',
      'f1.type': 'select',
      'f1.options': 'a\nb',
      'f3.id': 'ignored',
      'f3.type': 'text',
    }) as Record<string, unknown>;
    expect(rowsFromBody(body)).toEqual([
      row('email', { type: 'email', required: true }),
      row('topic', { type: 'select', options: 'a\nb' }),
    ]);
  });

  it('ignores non-string values (repeated keys arrive as arrays)', () => {
    const rows = rowsFromBody({ 'f0.id': ['a', 'b'], 'f0.type': 'text' });
    expect(rows[0].id).toBe('');
  });

  it.each([
    [{ op: 'add' }, { kind: 'add' }],
    [{ op: 'up:2' }, { kind: 'up', index: 2 }],
    [{ op: 'remove:0' }, { kind: 'remove', index: 0 }],
    [{ op: 'save' }, { kind: 'save' }],
    [{ op: 'up:x' }, { kind: 'save' }],
    [{}, { kind: 'save' }],
  ])('reads the pressed button %j', (body, op) => {
    expect(opFromBody(body)).toEqual(op);
  });

  it('adds, removes and moves rows, never past either end', () => {
    const rows = [row('a'), row('b'), row('c')];
    const ids = (op: Parameters<typeof applyOp>[1]) =>
      applyOp(rows, op)!.map((r) => r.id);
    expect(ids({ kind: 'add' })).toEqual(['a', 'b', 'c', '']);
    expect(ids({ kind: 'remove', index: 1 })).toEqual(['a', 'c']);
    expect(ids({ kind: 'up', index: 2 })).toEqual(['a', 'c', 'b']);
    expect(ids({ kind: 'down', index: 0 })).toEqual(['b', 'a', 'c']);
    expect(ids({ kind: 'up', index: 0 })).toEqual(['a', 'b', 'c']);
    expect(ids({ kind: 'down', index: 2 })).toEqual(['a', 'b', 'c']);
    expect(applyOp(rows, { kind: 'save' })).toBeNull();
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('turns rows into API field definitions, skipping blank rows and deriving ids from labels', () => {
    const { fields, rowOfField } = fieldsFromRows([
      row('', { label: 'Your e-mail', type: 'email', required: true }),
      blankRow(),
      row('topic', { type: 'select', options: ' Sales \n\nSupport\n' }),
      row('note', { type: 'text', options: 'stale', maxLength: '200' }),
      row('age', { type: 'number', maxLength: 'ten' }),
    ]);
    expect(fields).toEqual([
      {
        id: 'your_e_mail',
        type: 'email',
        label: 'Your e-mail',
        required: true,
      },
      { id: 'topic', type: 'select', options: ['Sales', 'Support'] },
      { id: 'note', type: 'text', maxLength: 200 },
      { id: 'age', type: 'number', maxLength: 'ten' },
    ]);
    expect(rowOfField).toEqual([0, 2, 3, 4]);
  });

  it('round-trips stored fields through rows', () => {
    const stored = [
      {
        id: 'topic',
        type: 'select' as const,
        label: 'Topic',
        required: true,
        options: ['a', 'b'],
      },
      { id: 'msg', type: 'textarea' as const, maxLength: 300 },
    ];
    expect(fieldsFromRows(rowsFromFields(stored)).fields).toEqual(stored);
  });

  it('derives ids a field may have', () => {
    expect(idFromLabel('  Ünïcode Name! ')).toBe('unicode_name');
    expect(idFromLabel('___')).toBe('');
  });

  it('labels known field types and passes unknown names through', () => {
    expect(typeLabel('tel')).toBe('Phone');
    expect(typeLabel('constructor')).toBe('constructor');
  });
});

describe('fields editor: file fields', () => {
  it('keeps a file field’s size, formats and count through a round trip', () => {
    const field = {
      id: 'cv',
      type: 'file' as const,
      required: true,
      maxSize: 5_000_000,
      accept: ['application/pdf', 'image/*'],
      maxFiles: 2,
    };
    const rows = rowsFromFields([field]);
    expect(rows[0]).toMatchObject({
      maxSize: '5000000',
      accept: 'application/pdf, image/*',
      maxFiles: '2',
    });
    expect(fieldsFromRows(rows).fields).toEqual([field]);
  });

  it('reads the file settings of a posted row, and sends them only for file fields', () => {
    const body = {
      'f0.id': 'cv',
      'f0.type': 'file',
      'f0.maxSize': ' 1000 ',
      'f0.accept': '.pdf,image/png  .docx',
      'f0.maxFiles': 'three',
      'f1.id': 'name',
      'f1.type': 'text',
      'f1.maxSize': '1000',
    };
    expect(fieldsFromRows(rowsFromBody(body)).fields).toEqual([
      {
        id: 'cv',
        type: 'file',
        maxSize: 1000,
        accept: ['.pdf', 'image/png', '.docx'],
        maxFiles: 'three',
      },
      { id: 'name', type: 'text' },
    ]);
  });
});
