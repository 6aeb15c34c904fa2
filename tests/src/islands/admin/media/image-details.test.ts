// The title and alt text an image is uploaded with (src/islands/admin/media/image-details.ts).
import { describe, expect, it } from 'vitest';
import {
  ALT_MISSING_WARNING,
  altWarning,
  detailsFromFileName,
  IMAGE_TEXT_MAX,
  textFromFileName,
} from '../../../../../src/islands/admin/media/image-details.ts';

describe('textFromFileName', () => {
  it('drops the extension and any folder, turns separators into spaces and capitalises', () => {
    expect(textFromFileName('gauge_r-r.png')).toBe('Gauge r r');
    expect(textFromFileName('C:\\scans\\probe--tip__01.final.JPG')).toBe('Probe tip 01.final');
    expect(textFromFileName('/tmp/server room.webp')).toBe('Server room');
  });

  it('gives an empty text for a name with nothing but an extension, and never more than the server takes', () => {
    expect(textFromFileName('.png')).toBe('');
    expect(textFromFileName(`${'a'.repeat(400)}.png`)).toHaveLength(IMAGE_TEXT_MAX);
  });
});

describe('detailsFromFileName', () => {
  it('pre-fills both the title and the alt text', () => {
    expect(detailsFromFileName('dial-gauge.png')).toEqual({ title: 'Dial gauge', alt: 'Dial gauge' });
  });
});

describe('altWarning', () => {
  it('warns while the alt text is empty or blank, and not otherwise', () => {
    expect(altWarning({ title: 'x', alt: '' })).toBe(ALT_MISSING_WARNING);
    expect(altWarning({ title: 'x', alt: '   ' })).toBe(ALT_MISSING_WARNING);
    expect(altWarning({ title: '', alt: 'A dial gauge' })).toBeNull();
  });
});
