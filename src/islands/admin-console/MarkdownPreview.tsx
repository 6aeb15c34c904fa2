// The mailing body's preview through the site's own markdown pipeline (common/markdown): the server
// renders the mail with the same function (renderMailingHtml: site paths absolute, images from other
// sites left out), so what the admin sees is what recipients get. The pipeline is
// a sizeable chunk (KaTeX), loaded when the preview first shows; rendering waits for a pause in typing.
// Its output is sanitised by the pipeline itself (rehype-sanitize last), so it is safe to insert.
import { useEffect, useState } from 'react';
import { loadStylesheet } from '../../scripts/load-stylesheet.ts';
// The static pages style math with KaTeX's sheet (src/components/Markdown.astro); without it the
// preview would show each formula twice (the visual form and its MathML twin). Only its URL is imported:
// importing the sheet itself made Astro link it from every page.
import katexStylesUrl from 'katex/dist/katex.min.css?url';

const loadMarkdown = () => Promise.all([import('../../../common/markdown/index.ts'), loadStylesheet(katexStylesUrl)]).then(([module]) => module);
const PAUSE_MS = 250;

export function MarkdownPreview({ markdown, id }: { markdown: string; id?: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      loadMarkdown()
        .then(({ renderMailingHtml }) => {
          if (!current) return;
          // The admin is on the site, so this page's origin is the site's.
          setHtml(renderMailingHtml(markdown, window.location.origin));
          setFailed(false);
        })
        .catch((error: unknown) => {
          console.error('Could not render the preview', error);
          if (current) setFailed(true);
        });
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [markdown]);

  if (failed) return <p className="empty-note">The preview could not be loaded.</p>;
  if (!markdown.trim()) return <p className="empty-note">The preview shows here as you write.</p>;
  if (html === null) return <p className="empty-note">Rendering the preview…</p>;
  return <div className="prose admin-markdown-preview__body" id={id} dangerouslySetInnerHTML={{ __html: html }} />;
}
