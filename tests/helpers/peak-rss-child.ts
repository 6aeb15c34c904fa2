// A process of its own for tests/server/publish/peak-rss.test.ts: it resets its peak, then holds 48 MB, and
// prints the peaks it read right after the reset and after the 48 MB, in bytes, as JSON.
import { peakRssBytes, resetPeakRss } from '../../server/publish/peak-rss.ts';

resetPeakRss();
const afterReset = peakRssBytes();
const held = Buffer.alloc(48 * 1024 * 1024, 1);
const afterWork = peakRssBytes();
console.log(JSON.stringify({ afterReset, afterWork, held: held.length }));
