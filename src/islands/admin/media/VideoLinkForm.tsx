// Adds a YouTube link to a page image library as a video item (inserted into text as its player).
import { useId, useState } from 'react';

export function VideoLinkForm({ onAdd }: { onAdd: (url: string) => Promise<boolean> }) {
  const id = useId();
  const [url, setUrl] = useState('');
  return (
    <form
      className="image-manager__upload"
      onSubmit={(event) => {
        event.preventDefault();
        void onAdd(url).then((added) => added && setUrl(''));
      }}
      noValidate
    >
      <label className="field__label" htmlFor={`${id}-video`}>
        YouTube link
      </label>
      <input
        id={`${id}-video`}
        className="field__control"
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/watch?v=…"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <button type="submit" className="button button--small">
        Add video
      </button>
    </form>
  );
}
