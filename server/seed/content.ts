// The demo world: fictional creators, cam sites, tags and the footer pages. Everything here is made up.

export interface DemoCreator {
  username: string;
  name: string;
  type: 'model' | 'channel';
  gender: 'm' | 't';
  live: boolean;
  verified: 'approved' | 'none' | 'pending';
  description: string;
  color?: string;
  sites: string[];
  links: { name: string; url: string; live?: boolean; important?: boolean }[];
  contest?: { title: string; content: string };
}

export const demoPassword = 'demo-password';

export const demoCreators: DemoCreator[] = [
  {
    username: 'luna_vega',
    name: 'Luna Vega',
    type: 'model',
    gender: 'm',
    live: true,
    verified: 'approved',
    description: 'Neon loops and late-night sets. Live most evenings, come say hi.',
    sites: ['camriver', 'livenest'],
    links: [
      { name: 'My cam room', url: 'https://camriver.example/luna_vega', live: true, important: true },
      { name: 'Fan page', url: 'https://fans.example/luna' },
    ],
    contest: {
      title: 'Loop of the month',
      content:
        '<p>Send me your favourite loop before the 30th. The top three get a <strong>private show</strong>.</p><ul><li>One entry per fan</li><li>Winners announced live</li></ul>',
    },
  },
  {
    username: 'neon-district',
    name: 'Neon District',
    type: 'channel',
    gender: 'm',
    live: false,
    verified: 'approved',
    description: 'A channel of glowing city patterns, new drops every week.',
    color: '#8b5cf6',
    sites: ['streamvibe'],
    links: [{ name: 'Website', url: 'https://neondistrict.example', important: true }],
  },
  {
    username: 'kai_rivers',
    name: 'Kai Rivers',
    type: 'model',
    gender: 't',
    live: true,
    verified: 'approved',
    description: 'Colour, rhythm and good vibes. Ask me about my playlist.',
    sites: ['livenest', 'nightcams'],
    links: [
      { name: 'Live now', url: 'https://livenest.example/kai', live: true, important: true },
      { name: 'Playlist', url: 'https://music.example/kai' },
    ],
  },
  {
    username: 'mira_sol',
    name: 'Mira Sol',
    type: 'model',
    gender: 'm',
    live: false,
    verified: 'approved',
    description: 'Slow, hypnotic, warm. Sunday streams only.',
    sites: ['camriver'],
    links: [{ name: 'Schedule', url: 'https://camriver.example/mira_sol/schedule' }],
  },
  {
    username: 'pixel-palace',
    name: 'Pixel Palace',
    type: 'channel',
    gender: 't',
    live: false,
    verified: 'approved',
    description: 'Retro pixels and cellular automata, remixed daily.',
    color: '#ec4899',
    sites: ['pixellive'],
    links: [{ name: 'Shop', url: 'https://pixelpalace.example/shop' }],
  },
  {
    username: 'jade_onyx',
    name: 'Jade Onyx',
    type: 'model',
    gender: 't',
    live: true,
    verified: 'approved',
    description: 'Night owl. Glitch art lover. Live after midnight.',
    sites: ['nightcams'],
    links: [{ name: 'Join my room', url: 'https://nightcams.example/jade', live: true, important: true }],
    contest: {
      title: 'Glitch challenge',
      content: '<p>Make the weirdest glitch you can and tag me. Best one gets a shout-out on stream.</p>',
    },
  },
  {
    username: 'nova_blaze',
    name: 'Nova Blaze',
    type: 'model',
    gender: 'm',
    live: false,
    verified: 'approved',
    description: 'Bright colours, big energy.',
    sites: ['streamvibe', 'camriver'],
    links: [{ name: 'Stream page', url: 'https://streamvibe.example/nova' }],
  },
  {
    username: 'velvet-waves',
    name: 'Velvet Waves',
    type: 'channel',
    gender: 'm',
    live: false,
    verified: 'approved',
    description: 'Ambient waves for calm nights.',
    color: '#06b6d4',
    sites: ['livenest'],
    links: [{ name: 'Channel site', url: 'https://velvetwaves.example' }],
  },
  {
    username: 'rio_stardust',
    name: 'Rio Stardust',
    type: 'model',
    gender: 't',
    live: false,
    verified: 'approved',
    description: 'Stardust, spirals and soft light.',
    sites: ['pixellive'],
    links: [{ name: 'Wishlist', url: 'https://wish.example/rio' }],
  },
  {
    username: 'ivy_moon',
    name: 'Ivy Moon',
    type: 'model',
    gender: 'm',
    live: true,
    verified: 'approved',
    description: 'Moonlit loops. Live on weekends.',
    sites: ['camriver', 'nightcams'],
    links: [{ name: 'Live room', url: 'https://camriver.example/ivy_moon', live: true, important: true }],
  },
  {
    username: 'echo_lane',
    name: 'Echo Lane',
    type: 'model',
    gender: 'm',
    live: false,
    verified: 'pending',
    description: 'New here! Verification on its way.',
    sites: [],
    links: [],
  },
  {
    username: 'sky_harbor',
    name: 'Sky Harbor',
    type: 'model',
    gender: 't',
    live: false,
    verified: 'none',
    description: 'Just getting started.',
    sites: [],
    links: [],
  },
];

/** Creators whose verification is approved own the demo videos. */
export const videoOwners = demoCreators.filter((c) => c.verified === 'approved').map((c) => c.username);

export const demoUsers = [
  { username: 'sam_viewer', name: 'Sam', gender: 'm' as const },
  { username: 'alex_night', name: 'Alex', gender: 't' as const },
  { username: 'robin_loops', name: 'Robin', gender: 'm' as const },
];

export const demoEmail = (username: string) => `${username.replace(/[^a-z0-9]/gi, '.')}@demo.test`;

export const demoTags = [
  'neon',
  'abstract',
  'chill',
  'retro',
  'glitch',
  'loop',
  'colors',
  'hypnotic',
  'pixel',
  'waves',
  'night',
  'party',
  'ambient',
  'trippy',
  'minimal',
  'spiral',
];

export const demoCategories = [
  { slug: 'popular', name: 'Popular' },
  { slug: 'hypnotic', name: 'Hypnotic' },
  { slug: 'retro', name: 'Retro' },
  { slug: 'chill', name: 'Chill' },
  { slug: 'party', name: 'Party' },
  { slug: 'new-faces', name: 'New faces' },
];

export const demoWebcamSites = [
  { slug: 'camriver', name: 'CamRiver', url: 'https://camriver.example' },
  { slug: 'livenest', name: 'LiveNest', url: 'https://livenest.example' },
  { slug: 'streamvibe', name: 'StreamVibe', url: 'https://streamvibe.example' },
  { slug: 'nightcams', name: 'NightCams', url: 'https://nightcams.example' },
  { slug: 'pixellive', name: 'PixelLive', url: 'https://pixellive.example' },
];

const adjectives = ['Midnight', 'Electric', 'Velvet', 'Golden', 'Frozen', 'Cosmic', 'Liquid', 'Silent'];
const nouns = ['Bloom', 'Drift', 'Pulse', 'Spiral', 'Echo', 'Glow', 'Ripple', 'Orbit'];

export const demoTitle = (i: number) =>
  `${adjectives[i % adjectives.length]} ${nouns[(i * 3 + 1) % nouns.length]}${i >= 8 ? ` ${Math.floor(i / 8) + 1}` : ''}`;

const page = (title: string, body: string) => ({ title, content: body.trim().replace(/\n\s+/g, '\n') });

export const demoPages: Record<string, { title: string; content: string }> = {
  faq: page(
    'Frequently asked questions',
    `
    <h2>What is ShortCams?</h2>
    <p>ShortCams is a vertical video feed of short clips from independent webcam creators. Swipe up for the next video, swipe left to open the creator's profile.</p>
    <h2>Do I need an account?</h2>
    <p>No. You can watch, like and share as a guest. An account lets you follow creators, rate videos and keep your likes on every device.</p>
    <h2>How do I become a creator?</h2>
    <p>Register with <em>Post videos</em>, confirm your email and verify your identity. Once your verification is approved you can upload.</p>
    <h2>Why is a video not available in my country?</h2>
    <p>Creators may block countries or regions. Their videos and profile are then hidden for viewers there.</p>
    <h2>How do I report a video?</h2>
    <p>Open the <strong>more actions</strong> menu on any video and choose <em>Report</em>. Our team reviews every report.</p>
  `,
  ),
  policy: page(
    'Privacy policy',
    `
    <p>Last updated: November 2026.</p>
    <h2>What we collect</h2>
    <p>For guests, a random identifier stored on your device so that likes and preferences survive a reload. For members, your email address, display name and the settings you choose.</p>
    <h2>What we do with it</h2>
    <p>We use it to run the service: show your likes, count views, prevent abuse and send the emails you ask for. We do not sell personal data.</p>
    <h2>Identity documents</h2>
    <p>Creators' verification documents are kept encrypted at rest, seen only by the review team and deleted when the legal retention period ends.</p>
    <h2>Your rights</h2>
    <p>You can ask for a copy of your data or for its deletion through the <a href="/support">support form</a>.</p>
  `,
  ),
  dmca: page(
    'DMCA notice',
    `
    <p>We respect the intellectual property of others. If you believe a video infringes your copyright, send a notice with:</p>
    <ol>
      <li>the link to the video;</li>
      <li>a description of the copyrighted work;</li>
      <li>your contact details;</li>
      <li>a statement, under penalty of perjury, that you are the owner or authorised to act for the owner.</li>
    </ol>
    <p>Notices go to <a href="mailto:dmca@shortcams.example">dmca@shortcams.example</a>. We remove infringing content promptly and notify the uploader.</p>
  `,
  ),
  '2257': page(
    '18 U.S.C. 2257 statement',
    `
    <p>All persons who appear in any visual depiction on this website were 18 years of age or older at the time of creation.</p>
    <p>Every creator verifies their identity and age with a government-issued document before uploading. Records required by 18 U.S.C. 2257 are kept by the custodian of records at the address below.</p>
    <p>Custodian of Records, ShortCams, 100 Example Street, Suite 5, Example City.</p>
  `,
  ),
  support: page(
    'Support',
    `
    <p>Something not working? We usually answer within one business day.</p>
    <ul>
      <li>Account and login problems: use the <a href="/support">contact form</a>.</li>
      <li>Creators: the help page in your account has Discord, WhatsApp and email support.</li>
      <li>Payments and partner links: <a href="mailto:partners@shortcams.example">partners@shortcams.example</a>.</li>
    </ul>
  `,
  ),
  terms: page(
    'Terms and conditions',
    `
    <p>By using ShortCams you confirm that you are at least 18 years old and that adult content is legal where you are.</p>
    <h2>Your account</h2>
    <p>Keep your password to yourself. You are responsible for what happens under your account.</p>
    <h2>Content</h2>
    <p>Creators keep the rights to their videos and grant us the right to show them on ShortCams. Content must be legal, consensual and posted by its owner.</p>
    <h2>Termination</h2>
    <p>We may suspend accounts that break these terms. You may delete your account at any time.</p>
  `,
  ),
};
