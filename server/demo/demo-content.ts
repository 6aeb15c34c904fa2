// Demo content seeded on the first start, so a newcomer sees a complete site. Every body exercises the
// markdown features of docs/product/reading.md#markdown: inline and block math, emoji shortcodes, ==highlight==, bare
// URL autolinks, typographic quotes and dashes, and embedded HTML.
import type { Namespace } from '../db/schema.ts';

export interface DemoPost {
  title: string;
  body: string;
  published: boolean;
  display_order: number;
}

export interface DemoSection {
  title: string;
  order: number;
  posts: DemoPost[];
}

const featureTour = (topic: string) => `Every ${topic} page supports the full markdown toolkit :rocket:

- Inline math such as $E = mc^2$ or the tolerance band $\\pm 0.05\\,\\text{mm}$.
- ==Highlighted notes== for what matters most.
- Typographic quotes -- "like these" and 'these' -- plus dashes and an ellipsis...
- Bare links become links: https://example.com/metrology
- Emoji shortcodes: :straight_ruler: :white_check_mark: :gear:

$$
\\sigma = \\sqrt{\\frac{1}{N}\\sum_{i=1}^{N}(x_i - \\mu)^2}
$$

<div class="callout"><strong>Embedded HTML</strong> works too, and is sanitised before it reaches readers.</div>
`;

export const DEMO_HOME_SECTIONS: { title: string; body: string; order: number; imageThemes: string[] }[] = [
  {
    title: 'Dimensional control you can trust',
    order: 0,
    body: `We build software that turns coordinate measurements into ==clear, actionable reports== :triangular_ruler:

Our tools compare as-built geometry to design intent, flag deviations beyond $\\pm 0.1\\,\\text{mm}$, and keep every inspection traceable. Read the documentation or download the latest release to get started.`,
    imageThemes: ['Point cloud alignment', 'Deviation colour map', 'Inspection report'],
  },
  {
    title: 'IT solutions for engineering teams',
    order: 1,
    body: `From network design to data pipelines, we keep measurement data flowing -- securely and on time.

- Managed servers and backups
- Integration with CAD/PLM systems
- Training on site or online: https://example.com/training

<p><em>"It just works"</em> is our standard, not a slogan.</p>`,
    imageThemes: ['Server room', 'Data pipeline'],
  },
  {
    title: 'Support and training',
    order: 2,
    body: `Stuck on a measurement plan? Our tutorials walk through real jobs step by step :mortar_board:

The best-fit transform minimises $\\sum_i \\lVert R p_i + t - q_i \\rVert^2$ over rotations $R$ and translations $t$.`,
    imageThemes: [],
  },
];

export const DEMO_SECTIONS: Record<Namespace, DemoSection[]> = {
  news: [
    {
      title: 'Company News',
      order: 0,
      posts: [
        {
          title: 'Version 3.2 released',
          display_order: 0,
          published: true,
          body: `Release 3.2 brings faster alignment and a new report designer :tada:

${featureTour('news')}`,
        },
        {
          title: 'Meet us at the metrology fair',
          display_order: 1,
          published: true,
          body: `We will be at booth **B-42** -- come and say "hello". Demo slots are limited...

Registration: https://example.com/fair`,
        },
        {
          title: 'Draft: roadmap for next year',
          display_order: 2,
          published: false,
          body: 'This draft is not published, so readers never see it.',
        },
      ],
    },
    {
      title: 'Product Updates',
      order: 1,
      posts: [
        {
          title: 'Improved point cloud import',
          display_order: 0,
          published: true,
          body: 'Imports of large scans are now ==three times faster==, and memory use stays flat :chart_with_upwards_trend:',
        },
      ],
    },
  ],
  documentation: [
    {
      title: 'Getting Started',
      order: 0,
      posts: [
        {
          title: 'Installation',
          display_order: 0,
          published: true,
          body: `## System requirements

| Component | Minimum | Recommended |
|-----------|---------|-------------|
| CPU       | 4 cores | 8 cores     |
| Memory    | 8 GB    | 32 GB       |

Download the installer from the downloads page and run it :computer:

${featureTour('documentation')}`,
        },
        {
          title: 'First measurement',
          display_order: 1,
          published: true,
          body: `1. Load the CAD model.
2. Import the point cloud.
3. Run **best-fit alignment**; the residual is $r = \\lVert p - q \\rVert$.

> Tip: keep ==temperature compensation== on for steel parts.`,
        },
      ],
    },
    {
      title: 'Reference',
      order: 1,
      posts: [
        {
          title: 'Tolerance formulas',
          display_order: 0,
          published: true,
          body: `Root-sum-square stack-up:

$$
T_{\\text{RSS}} = \\sqrt{\\sum_{i=1}^{n} T_i^2}
$$

Worst case: $T_{\\text{WC}} = \\sum_i |T_i|$.`,
        },
      ],
    },
  ],
  tutorials: [
    {
      title: 'Basics',
      order: 0,
      posts: [
        {
          title: 'Aligning a scan to CAD',
          display_order: 0,
          published: true,
          body: `In this tutorial you align a scan of a bracket to its CAD model :wrench:

${featureTour('tutorials')}

The zeppelin-shaped fixture keeps the part steady during scanning.`,
        },
        {
          title: 'Colour deviation maps',
          display_order: 1,
          published: true,
          body: 'Colour maps show deviations at a glance -- green within tolerance, ==red== outside it.',
        },
      ],
    },
    {
      title: 'Advanced',
      order: 1,
      posts: [
        {
          title: 'Scripting batch inspections',
          display_order: 0,
          published: true,
          body: `Automate repeated inspections with the scripting API:

\`\`\`python
for part in batch:
    report = inspect(part, tolerance=0.05)
    report.save()
\`\`\``,
        },
      ],
    },
  ],
};

/**
 * The demo releases (issue 25: versions, a beta, an entitled add-on, files per platform), so the downloads
 * page, "My software" and the update feeds have something to show. `daysAgo` dates each release; the first
 * file of each is its `any`/`universal` file as the release form uploads it.
 */
export const DEMO_DOWNLOADS: ReadonlyArray<{
  title: string;
  release: string;
  is_current: 0 | 1;
  downloadable: 0 | 1;
  body: string;
  version: string;
  channel: 'stable' | 'beta';
  entitlement: string | null;
  daysAgo: number;
  files: ReadonlyArray<{ name: string; platform: 'windows' | 'macos' | 'linux' | 'any'; arch: 'x64' | 'arm64' | 'universal' }>;
}> = [
  {
    title: 'Dimensional Inspector 3.2',
    release: '3.2.0',
    is_current: 1,
    downloadable: 1,
    body: `The current release :sparkles:

- ==New== report designer
- Faster best-fit: $O(n \\log n)$ nearest-neighbour search
- Release notes: https://example.com/releases/3.2`,
    version: '3.2.0',
    channel: 'stable',
    entitlement: null,
    daysAgo: 20,
    files: [
      { name: 'dimensional-inspector-3.2.0.txt', platform: 'any', arch: 'universal' },
      { name: 'dimensional-inspector-3.2.0-windows-x64.txt', platform: 'windows', arch: 'x64' },
      { name: 'dimensional-inspector-3.2.0-windows-arm64.txt', platform: 'windows', arch: 'arm64' },
      { name: 'dimensional-inspector-3.2.0-macos-universal.txt', platform: 'macos', arch: 'universal' },
      { name: 'dimensional-inspector-3.2.0-linux-x64.txt', platform: 'linux', arch: 'x64' },
    ],
  },
  {
    title: 'Dimensional Inspector 3.3 beta',
    release: '3.3.0-beta.1',
    is_current: 0,
    downloadable: 1,
    body: 'A preview of the next release for licenses with **BETA**: point-cloud streaming and a dark theme.',
    version: '3.3.0-beta.1',
    channel: 'beta',
    entitlement: null,
    daysAgo: 3,
    files: [
      { name: 'dimensional-inspector-3.3.0-beta.1-windows-x64.txt', platform: 'windows', arch: 'x64' },
      { name: 'dimensional-inspector-3.3.0-beta.1-macos-universal.txt', platform: 'macos', arch: 'universal' },
    ],
  },
  {
    title: 'Inspector Reports add-on 1.4',
    release: '1.4.0',
    is_current: 0,
    downloadable: 1,
    body: 'Report templates and PDF export, for licenses with the **REPORTS** entitlement.',
    version: '1.4.0',
    channel: 'stable',
    entitlement: 'REPORTS',
    daysAgo: 10,
    files: [
      { name: 'inspector-reports-1.4.0-windows-x64.txt', platform: 'windows', arch: 'x64' },
      { name: 'inspector-reports-1.4.0-macos-universal.txt', platform: 'macos', arch: 'universal' },
    ],
  },
  {
    title: 'Dimensional Inspector 3.1',
    release: '3.1.4',
    is_current: 0,
    downloadable: 0,
    body: 'The previous release -- kept for customers who need it "as it was".',
    version: '3.1.4',
    channel: 'stable',
    entitlement: null,
    daysAgo: 120,
    files: [{ name: 'dimensional-inspector-3.1.4.txt', platform: 'any', arch: 'universal' }],
  },
];
