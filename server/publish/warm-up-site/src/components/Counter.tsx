import { useState } from 'react';

/** A hydrated island, so the warm-up runs the client build of React as the real site's islands do. */
export default function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {label}: {count}
    </button>
  );
}
