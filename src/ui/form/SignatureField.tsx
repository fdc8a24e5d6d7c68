import { useCallback, useEffect, useRef, useState } from 'react';
import type SignaturePadType from 'signature_pad';
import type { PointGroup } from 'signature_pad';
import { describedBy, FieldNotes, messageOf } from './FieldNotes';
import type { FormApi, FormValues } from './useForm';
import './signature-field.css';

/**
 * What the pad holds, kept in the form (so a draft keeps it): the strokes as drawn, with the width of the pad
 * they were drawn on, or a name typed instead of drawn (for those who cannot draw: keyboard, switch access).
 */
export type SignatureStrokes = { width: number; groups: PointGroup[] } | { typed: string };

type BlobKeys<V> = {
  [K in keyof V & string]: V[K] extends Blob | null | undefined | '' ? K : never;
}[keyof V & string];
type StrokeKeys<V> = {
  [K in keyof V & string]: V[K] extends SignatureStrokes | null | undefined ? K : never;
}[keyof V & string];

const INK = '#17172a';
const PAPER = 'rgb(255, 255, 255)';
const TYPED_FONT = '"Segoe Script", "Snell Roundhand", "Brush Script MT", "URW Chancery L", cursive';

/** Strokes drawn on a pad `from` px wide, moved onto one `to` px wide: the pad keeps its aspect ratio. */
function scaled(groups: PointGroup[], from: number, to: number): PointGroup[] {
  if (from === to || from <= 0) return groups;
  const k = to / from;
  return groups.map((group) => ({
    ...group,
    points: group.points.map((point) => ({ ...point, x: point.x * k, y: point.y * k })),
  }));
}

function drawTyped(canvas: HTMLCanvasElement, text: string) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const width = canvas.offsetWidth;
  const height = canvas.offsetHeight;
  let size = Math.round(height * 0.42);
  ctx.save();
  ctx.fillStyle = INK;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // The longest name still fits the line.
  do {
    ctx.font = `italic ${size}px ${TYPED_FONT}`;
    size -= 2;
  } while (ctx.measureText(text).width > width * 0.9 && size > 12);
  ctx.fillText(text, width / 2, height / 2);
  ctx.restore();
}

const toPng = (canvas: HTMLCanvasElement) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'));

/**
 * A signature drawn with a finger, a pen or the mouse (signature_pad, loaded only when this field shows),
 * stored as a PNG on white in `name` and as strokes in `strokesName`. The canvas follows the screen's pixel
 * ratio and width, and redraws the strokes scaled when the width changes (a rotation), so nothing drawn is
 * lost; Clear starts again. A name may be typed instead, and is drawn in a handwriting face.
 */
export function SignatureField<V extends FormValues, K extends BlobKeys<V>, S extends StrokeKeys<V>>({
  form,
  name,
  strokesName,
  label,
  hint,
}: {
  form: FormApi<V>;
  name: K;
  strokesName: S;
  label: string;
  hint?: string;
}) {
  const id = form.fieldId(name);
  const { error, invalid, formRef: atForm } = messageOf(form, name);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePadType | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  // Until signature_pad has loaded, a stroke on the canvas draws nothing: the pad says so instead of "Sign here".
  const [ready, setReady] = useState(false);
  const strokes = (form.values[strokesName] ?? null) as SignatureStrokes | null;
  const strokesRef = useRef(strokes);
  strokesRef.current = strokes;
  /** The strokes value this field produced last: a different one came from outside (a draft, a reset). */
  const produced = useRef<SignatureStrokes | null>(null);
  const sizeRef = useRef({ width: 0, height: 0 });
  const formRef = useRef(form);
  formRef.current = form;

  const paint = useCallback((value: SignatureStrokes | null) => {
    const pad = padRef.current;
    const canvas = canvasRef.current;
    if (!pad || !canvas) return;
    pad.clear();
    if (!value) return;
    if ('typed' in value) drawTyped(canvas, value.typed);
    else pad.fromData(scaled(value.groups, value.width, canvas.offsetWidth));
  }, []);

  const store = useCallback(
    async (value: SignatureStrokes | null) => {
      const canvas = canvasRef.current;
      produced.current = value;
      const blob = value && canvas ? await toPng(canvas) : null;
      // A later change (Clear, another stroke or key) came while this PNG was encoding: it is the one to keep.
      if (produced.current !== value) return;
      const current = formRef.current;
      current.setValues({ [name]: blob, [strokesName]: value } as unknown as Partial<V>);
      if (current.errors[name] && blob) current.validate([name]);
    },
    [name, strokesName],
  );

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let cancelled = false;
    let observer: ResizeObserver | undefined;

    const resize = () => {
      const pad = padRef.current;
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (!pad || width === 0) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      if (
        width === sizeRef.current.width &&
        height === sizeRef.current.height &&
        canvas.width === Math.round(width * ratio)
      )
        return;
      sizeRef.current = { width, height };
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      paint(strokesRef.current);
    };

    import('signature_pad').then(
      ({ default: SignaturePad }) => {
        if (cancelled) return;
        const pad = new SignaturePad(canvas, {
          penColor: INK,
          backgroundColor: PAPER,
          minWidth: 0.9,
          maxWidth: 2.8,
        });
        padRef.current = pad;
        // Drawing replaces a typed name rather than writing over it.
        pad.addEventListener('beginStroke', () => {
          const current = strokesRef.current;
          if (current && 'typed' in current) pad.clear();
        });
        pad.addEventListener('endStroke', () => {
          void store({ width: canvas.offsetWidth, groups: pad.toData() });
        });
        resize();
        observer = new ResizeObserver(resize);
        observer.observe(canvas);
        // A change of zoom or screen changes the pixel ratio without changing the width.
        window.addEventListener('resize', resize);
        setReady(true);
      },
      () => {
        if (!cancelled) setLoadFailed(true);
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      window.removeEventListener('resize', resize);
      padRef.current?.off();
      padRef.current = null;
    };
  }, [paint, store]);

  // Strokes that arrive from outside (the draft read after a reload, a reset) are drawn.
  useEffect(() => {
    if (strokes !== produced.current) {
      produced.current = strokes;
      paint(strokes);
    }
  }, [strokes, paint]);

  const typed = strokes && 'typed' in strokes ? strokes.typed : '';
  const described = describedBy(id, error, hint, ...atForm, `${id}-how`);

  return (
    <fieldset className={`field signature-field${invalid ? ' has-error' : ''}`}>
      <legend className="field-label">{label}</legend>
      <div className="signature-pad">
        <canvas
          ref={canvasRef}
          id={id}
          className="signature-canvas"
          role="img"
          aria-label={strokes ? `${label}: signed` : `${label}: empty`}
          aria-describedby={described}
          aria-busy={!ready && !loadFailed}
          // Focusable, so that a failed submit can bring the person here.
          tabIndex={-1}
        />
        {!strokes && (
          <span className="signature-placeholder" aria-hidden="true">
            {ready ? 'Sign here' : loadFailed ? '' : 'Loading the pad…'}
          </span>
        )}
        <span className="signature-line" aria-hidden="true" />
      </div>
      <p id={`${id}-how`} className="field-hint">
        {loadFailed
          ? 'The signature pad could not load. Type your name below to sign.'
          : 'Draw your signature with a finger or the mouse, or type your name below.'}
      </p>
      <div className="signature-row">
        <label className="visually-hidden" htmlFor={`${id}-typed`}>
          Type your name to sign
        </label>
        <input
          id={`${id}-typed`}
          className="field-input signature-typed"
          placeholder="Or type your name"
          autoComplete="name"
          value={typed}
          onChange={(event) => {
            const text = event.target.value;
            const value = text.trim() === '' ? null : { typed: text };
            paint(value);
            void store(value);
          }}
        />
        <button
          type="button"
          className="btn btn-ghost signature-clear"
          onClick={() => {
            padRef.current?.clear();
            void store(null);
          }}
        >
          Clear
        </button>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}
