// Known XSS vectors through both entry points: sanitizeHtml and embedded HTML in renderMarkdown.
import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from '../../../common/markdown/index.ts';
import { findDangers } from './inspect-html.ts';

const VECTORS: Array<[name: string, html: string]> = [
  ['script element', '<script>alert(1)</script>'],
  ['script with src', '<script src="https://evil.example/x.js"></script>'],
  ['event handler', '<div onclick="alert(1)" onmouseover=alert(1)>x</div>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['img onerror, no quotes or spaces', '<img/src=x/onerror=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['svg script', '<svg><script>alert(1)</script></svg>'],
  ['svg script with href', '<svg><script href="data:text/javascript,alert(1)"/></svg>'],
  ['svg a xlink:href', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
  ['svg use', '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>#x"/></svg>'],
  ['svg animate', '<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>'],
  ['svg foreignObject', '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>'],
  ['math href', '<math href="javascript:alert(1)"><mi>x</mi></math>'],
  ['maction', '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>'],
  ['mglyph/style mutation', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['annotation-xml', '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['mixed-case javascript:', '<a href="jAvAsCrIpT:alert(1)">x</a>'],
  ['javascript: with leading space and control chars', '<a href=" \x01javascript:alert(1)">x</a>'],
  ['javascript: split by tab entity', '<a href="java&#x09;script:alert(1)">x</a>'],
  ['javascript: split by newline entity', '<a href="java&#10;script:alert(1)">x</a>'],
  ['javascript: split by raw tab', '<a href="java\tscript:alert(1)">x</a>'],
  ['entity-encoded javascript:', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
  ['hex-entity javascript:', '<a href="&#x6A;avascript&colon;alert(1)">x</a>'],
  ['vbscript:', '<a href="vbscript:msgbox(1)">x</a>'],
  ['VBScript: mixed case', '<a href="VbScRiPt:msgbox(1)">x</a>'],
  ['file:', '<a href="file:///etc/passwd">x</a>'],
  ['data:text/html link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['data:text/html iframe', '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>'],
  ['data:image/svg+xml img', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'],
  ['iframe javascript:', '<iframe src=javascript:alert(1)></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['iframe foreign site', '<iframe src="https://evil.example/"></iframe>'],
  ['iframe text breakout', '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe><script>alert(1)</script>'],
  ['style element', '<style>body{background:url(javascript:alert(1))}</style>'],
  ['style attribute url', '<p style="background:url(javascript:alert(1))">x</p>'],
  ['style attribute expression', '<p style="width:expression(alert(1))">x</p>'],
  ['style attribute escapes', '<p style="color:\\72 ed;background:u\\rl(x)">x</p>'],
  ['style attribute overlay', '<div style="position:fixed;top:0;left:0;width:100%;height:100%">x</div>'],
  ['base', '<base href="https://evil.example/">'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['form', '<form action="javascript:alert(1)"><button>go</button></form>'],
  ['formaction', '<button formaction="javascript:alert(1)">go</button>'],
  ['input autofocus onfocus', '<input autofocus onfocus=alert(1)>'],
  ['object', '<object data="javascript:alert(1)"></object>'],
  ['embed', '<embed src="javascript:alert(1)">'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>x</summary></details>'],
  ['video poster and onerror', '<video poster="javascript:alert(1)" onerror="alert(1)"><source src="x" onerror="alert(1)"></video>'],
  ['body onload', '<body onload=alert(1)>'],
  ['template', '<template><img src=x onerror=alert(1)></template>'],
  ['noscript mutation', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['comment breakout', '<!--><img src=x onerror=alert(1)>-->'],
  ['textarea breakout', '<textarea></textarea><img src=x onerror=alert(1)></textarea>'],
  ['title breakout', '<title><img src=x onerror=alert(1)></title>'],
  ['unclosed attribute', '<a href="x" title="><img src=x onerror=alert(1)>">x</a>'],
  ['cdata in svg', '<svg><![CDATA[><img src=x onerror=alert(1)>]]></svg>'],
];

describe('sanitizeHtml blocks known XSS vectors', () => {
  it.each(VECTORS)('%s', (_name, html) => {
    const out = sanitizeHtml(html);
    expect(findDangers(out)).toEqual([]);
    expect(sanitizeHtml(out)).toBe(out);
  });
});

describe('renderMarkdown blocks known XSS vectors in embedded HTML', () => {
  it.each(VECTORS)('%s', (_name, html) => {
    expect(findDangers(renderMarkdown(`Intro\n\n${html}\n\nafter`))).toEqual([]);
    expect(findDangers(renderMarkdown(`Inline ${html} text`))).toEqual([]);
  });
});

describe('renderMarkdown blocks dangerous markdown links and images', () => {
  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](<javascript:alert(1)>)',
    '[x](java%0ascript:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](vbscript:msgbox(1))',
    '[x](file:///etc/passwd)',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '![x](javascript:alert(1))',
    '![x](data:text/html;base64,PHNjcmlwdD4=)',
    '<javascript:alert(1)>',
    '[x][ref]\n\n[ref]: javascript:alert(1)',
  ])('%s', (markdown) => {
    expect(findDangers(renderMarkdown(markdown))).toEqual([]);
  });

  it('keeps ordinary http, https, mailto, tel and relative links', () => {
    const html = renderMarkdown(
      '[a](https://a.example) [b](HTTP://b.example) [c](mailto:x@y.example) [d](tel:+441234) [e](/downloads) [f](#top) [g](page?q=1:2)',
    );
    expect(html).toContain('href="https://a.example"');
    expect(html).toContain('href="http://b.example"');
    expect(html).toContain('href="mailto:x@y.example"');
    expect(html).toContain('href="tel:+441234"');
    expect(html).toContain('href="/downloads"');
    expect(html).toContain('href="#top"');
    expect(html).toContain('href="page?q=1:2"');
  });
});
