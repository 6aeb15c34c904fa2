// A file's name, size and SHA-256 (src/islands/downloads/ReleaseFileList.tsx, FileFacts): the one markup of
// them on the static downloads page, in the admin's release list and in each row of a release's files. The
// copy button is the owner's: a React one in the islands, the hidden one src/scripts/copy-buttons.ts
// enables on the static page; either names the hash it copies and the file it belongs to.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FileFacts, ReleaseFileList } from '../../../../src/islands/downloads/ReleaseFileList.tsx';

const SHA = '60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752';
const facts = { name: 'viewer-setup.exe', size: '1.2 MB', sha256: SHA, shaId: 'download-602-sha256' };

describe('FileFacts', () => {
  it('on the static page, gives the hash the hidden copy button the page script enables', () => {
    expect(renderToStaticMarkup(createElement(FileFacts, { ...facts, copy: 'static' }))).toBe(
      '<dl class="download-card__file">' +
        '<div><dt>File</dt><dd class="download-card__filename">viewer-setup.exe</dd></div>' +
        '<div><dt>Size</dt><dd>1.2 MB</dd></div>' +
        `<div class="download-card__sha"><dt>SHA-256</dt><dd><code id="download-602-sha256" class="download-card__hash">${SHA}</code>` +
        '<button type="button" class="copy-button" data-copy-target="download-602-sha256" data-pagefind-ignore="" aria-label="Copy the SHA-256 of viewer-setup.exe" hidden="">Copy</button>' +
        '</dd></div></dl>',
    );
  });

  it("in an island, draws the owner's copy button for that hash and file", () => {
    const copies: Array<[string, string]> = [];
    const copy = (targetId: string, label: string) => {
      copies.push([targetId, label]);
      return createElement('button', { type: 'button' }, 'Copy');
    };
    const html = renderToStaticMarkup(createElement(FileFacts, { ...facts, className: 'release-file__facts', copy }));
    expect(copies).toEqual([['download-602-sha256', 'Copy the SHA-256 of viewer-setup.exe']]);
    expect(html).toMatch(/^<dl class="download-card__file release-file__facts">/);
    expect(html).toContain(`<code id="download-602-sha256" class="download-card__hash">${SHA}</code><button type="button">Copy</button>`);
  });

  it('leaves out a size nobody recorded and a hash that is not there, and with them the copy button', () => {
    const html = renderToStaticMarkup(createElement(FileFacts, { ...facts, size: '', sha256: null, copy: 'static' }));
    expect(html).toBe('<dl class="download-card__file"><div><dt>File</dt><dd class="download-card__filename">viewer-setup.exe</dd></div></dl>');
  });
});

describe('ReleaseFileList', () => {
  const file = {
    id: 6021,
    name: 'viewer-setup.exe',
    size: 1_258_291,
    sha256: SHA,
    platform: 'any',
    arch: 'universal',
    url: '/api/downloads/file/602/6021',
  } as const;

  it("draws each file's facts with FileFacts, its copy button the static one on the static page", () => {
    const html = renderToStaticMarkup(
      createElement(ReleaseFileList, { files: [file], title: 'Viewer', idPrefix: 'download-602', staticSlots: { releaseId: 602, gated: false } }),
    );
    expect(html).toContain(
      renderToStaticMarkup(
        createElement(FileFacts, {
          name: file.name,
          size: '1.2 MB',
          sha256: SHA,
          shaId: 'download-602-file-6021-sha256',
          className: 'release-file__facts',
          copy: 'static',
        }),
      ),
    );
  });
});
