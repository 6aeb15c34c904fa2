// Scales a freshly seeded product database up to the bench's size: `posts` posts spread evenly over the
// three namespaces (25 per section, like a well-kept documentation tree), and `users` accounts. Everything
// goes through the product's own insert functions inside one transaction, so slugs, defaults and
// constraints are the product's; only the password hash is computed once and shared (argon2id per user
// would take minutes and measure nothing the bench reports).
import { writeTransaction, type Db } from '../../server/db/client.ts';
import { insertPost } from '../../server/features/content/queries.ts';
import { insertSection } from '../../server/features/content/queries.ts';
import { NAMESPACES, users, type Namespace } from '../../server/db/schema.ts';

export const POSTS_PER_SECTION = 25;
export const BENCH_USER_PASSWORD = 'bench user password 2026';
const USER_BATCH = 500;

export interface ScaledSeed {
  /** The first section of each namespace the bench added, with its slug and one of its posts. */
  sections: Record<Namespace, { id: number; slug: string; postId: number }>;
  userEmails: string[];
  /** Ids of the bench users who verified their e-mail (the ones a mailing can go to). */
  verifiedUserIds: number[];
}

/** A body with what real posts carry: headings, emphasis, a list, code, math, emoji, an autolink, quotes. */
export function benchPostBody(index: number): string {
  const topics = ['probe calibration', 'point cloud alignment', 'GD&T datums', 'surface profile', 'CMM fixtures', 'tolerance stack-up'];
  const topic = topics[index % topics.length] ?? 'measurement';
  return [
    `## About ${topic} (${index})`,
    '',
    `This post explains **${topic}** step by step. "Measure twice, cut once" -- the _shop floor_ agrees :+1:.`,
    `See https://example.com/docs/${index} for the reference manual, and ==the highlighted rule== below.`,
    '',
    '- Clean the stylus and the reference sphere.',
    '- Load the part program and check the alignment.',
    `- Compare the deviation with the tolerance of ${(0.01 * ((index % 9) + 1)).toFixed(2)} mm.`,
    '',
    'The form error is $e = \\max_i d_i - \\min_i d_i$ over the measured points, and the best fit minimises',
    '',
    '$$\\sum_{i=1}^{n} \\lVert R p_i + t - q_i \\rVert^2$$',
    '',
    '```ts',
    `const deviation${index % 100} = measured.map((point, i) => point.distanceTo(nominal[i]));`,
    'console.log(Math.max(...deviation));',
    '```',
    '',
    `> Tip ${index}: keep the probe temperature stable; a 1 K change moves a 100 mm part by about 1.2 µm.`,
    '',
    '| Feature | Nominal | Tolerance |',
    '| --- | --- | --- |',
    `| Bore ${index % 7} | 12.000 | ±0.010 |`,
    '| Flatness | 0.000 | 0.005 |',
  ].join('\n');
}

export function seedScaled(db: Db, options: { posts: number; users: number; passwordHash: string; authorId: number | null }): ScaledSeed {
  return writeTransaction(db, () => {
    const sections = {} as ScaledSeed['sections'];
    NAMESPACES.forEach((namespace, namespaceIndex) => {
      // An even split; the remainder goes to the first namespaces.
      const count = Math.floor(options.posts / NAMESPACES.length) + (namespaceIndex < options.posts % NAMESPACES.length ? 1 : 0);
      let section: { id: number; slug: string } | null = null;
      for (let i = 0; i < count; i++) {
        if (i % POSTS_PER_SECTION === 0) {
          const created = insertSection(db, namespace, {
            title: `Bench ${namespace} section ${i / POSTS_PER_SECTION + 1}`,
            order: 100 + i / POSTS_PER_SECTION,
          });
          section = { id: created.id, slug: created.title_slug };
        }
        if (!section) throw new Error('no section to put the post in');
        const post = insertPost(db, namespace, {
          title: `Bench ${namespace} post ${i + 1}`,
          body: benchPostBody(i),
          section_id: section.id,
          uploaded_file_id: null,
          published: true,
          display_order: i % POSTS_PER_SECTION,
          user_id: options.authorId,
        });
        if (!sections[namespace]) sections[namespace] = { ...section, postId: post.id };
      }
    });

    const userEmails: string[] = [];
    const verifiedUserIds: number[] = [];
    const now = new Date().toISOString();
    for (let start = 0; start < options.users; start += USER_BATCH) {
      const batch = [];
      for (let i = start; i < Math.min(options.users, start + USER_BATCH); i++) {
        const email = `bench.user${i}@bench.example`;
        userEmails.push(email);
        // One in ten has not verified yet, as on a live site.
        batch.push({
          name: `Bench`,
          surname: `User ${i}`,
          email,
          password_hash: options.passwordHash,
          email_verified_at: i % 10 === 9 ? null : now,
          country: 'Italy',
        });
      }
      for (const row of db.insert(users).values(batch).returning({ id: users.id, verified: users.email_verified_at }).all()) {
        if (row.verified) verifiedUserIds.push(row.id);
      }
    }
    return { sections, userEmails, verifiedUserIds };
  });
}
