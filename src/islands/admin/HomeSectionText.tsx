// A home section's text column rendered from the API (a new section, or one changed since the live
// build): the markup of src/components/HomeSection.astro with the admin bar on top.
import type { ReactNode } from 'react';
import type { HomeSection } from '../../lib/api/home.ts';
import { useRenderedMarkdown } from './use-markdown.ts';

export function HomeSectionText({ section, first, bar }: { section: HomeSection; first: boolean; bar: ReactNode }) {
  const html = useRenderedMarkdown(section.body);
  const Heading = first ? 'h1' : 'h2';
  return (
    <>
      {bar}
      <Heading id={`home-section-${section.id}`} className="home-section__title">
        {section.title}
      </Heading>
      {html === null ? <div className="prose md-editor__plain">{section.body}</div> : <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />}
      {first && (
        <p className="home-section__actions">
          <a className="button" href="/documentation">
            Documentation
          </a>
          <a className="button button--secondary" href="/downloads">
            Downloads
          </a>
        </p>
      )}
    </>
  );
}
