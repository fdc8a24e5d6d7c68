// Recipes for demo media: abstract moving patterns from ffmpeg's built-in sources, no people. Each recipe
// is deterministic in its index so an interrupted first start regenerates exactly the same clip. They live
// in media, not seed, because demo.ts renders them and media sits below seed: the seed imports its stills
// from here.

/** Palettes as lutrgb channel weights: the same pattern in another colour reads as another video. */
const palettes = [
  { name: 'magenta', lut: 'r=val:g=val*0.25:b=val*0.85' },
  { name: 'cyan', lut: 'r=val*0.15:g=val*0.85:b=val' },
  { name: 'amber', lut: 'r=val:g=val*0.65:b=val*0.1' },
  { name: 'lime', lut: 'r=val*0.55:g=val:b=val*0.2' },
] as const;

const lifeColours = [
  ['#ff4fd8', '#3a0ca3', '#120024'],
  ['#00f5d4', '#005f73', '#001219'],
  ['#ffd166', '#ef476f', '#1b0b2e'],
  ['#9bf6ff', '#4361ee', '#03045e'],
] as const;

const cellRules = [30, 90, 110, 150, 18, 60] as const;

/** A lavfi source graph for demo clip `i` (any size; the encoder scales it to the rendition). */
export function demoPattern(i: number): { source: string; label: string } {
  const kind = i % 6;
  const variant = Math.floor(i / 6);
  const palette = palettes[variant % palettes.length] ?? palettes[0];
  switch (kind) {
    case 0: {
      const [life, death, mold] = lifeColours[variant % lifeColours.length] ?? lifeColours[0];
      return {
        label: 'life',
        source: `life=size=180x320:rate=30:mold=8:ratio=0.${10 + variant * 3}:seed=${7 + i}:life_color=${life}:death_color=${death}:mold_color=${mold},scale=540:960:flags=neighbor`,
      };
    }
    case 1: {
      const rule = cellRules[variant % cellRules.length] ?? 30;
      return {
        label: `rule ${rule}`,
        source: `cellauto=size=270x480:rate=30:rule=${rule}:seed=${3 + i},scale=540:960:flags=neighbor,lutrgb=${palette.lut}`,
      };
    }
    case 2: {
      const a = 11 + variant * 4;
      const b = 15 + variant * 3;
      return {
        label: 'plasma',
        source: `color=c=black:size=180x320:rate=30,geq=r='128+127*sin(X/${a}+T*2)':g='128+127*sin(Y/${b}+T*1.3)':b='128+127*sin((X+Y)/${a + b}+T*1.7)'`,
      };
    }
    case 3:
      return {
        label: 'prism',
        source: `testsrc2=size=540x960:rate=30,hue=h=${variant * 90}+t*40:s=1.4,boxblur=2:1`,
      };
    case 4:
      return {
        label: 'spectrum',
        source: `rgbtestsrc=size=270x480:rate=30,hue=h=t*${60 + variant * 25},rotate=a=t*0.${3 + variant}:fillcolor=black,scale=540:960`,
      };
    default: {
      const c = 9 + variant * 5;
      return {
        label: 'rings',
        source: `color=c=black:size=180x320:rate=30,geq=lum='128+127*sin(hypot(X-90,Y-160)/${c}-T*4)':cb=128:cr=128,lutrgb=${palette.lut}`,
      };
    }
  }
}

/** 5 to 15 seconds, spread so the feed has both snappy and longer clips. */
export const demoSeconds = (i: number) => 5 + ((i * 7) % 11);

/** A different quiet tone per clip, within the comfortable mid range. */
export const demoToneHz = (i: number) => 220 + ((i * 37) % 440);

/** Stills for avatars, covers and site icons, from the same families. */
export function stillPattern(i: number): string {
  const palette = palettes[i % palettes.length] ?? palettes[0];
  const k = 9 + (i % 7) * 3;
  return i % 2 === 0
    ? `color=c=black:size=200x200:rate=1,geq=r='128+127*sin(X/${k}+${i})':g='128+127*sin(Y/${k + 4}+${i * 2})':b='128+127*cos((X-Y)/${k + 8})'`
    : `cellauto=size=200x100:rate=1:rule=${cellRules[i % cellRules.length]}:seed=${i}:start_full=1,lutrgb=${palette.lut}`;
}
