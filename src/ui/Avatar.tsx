import './ui.css';

interface AvatarProps {
  src: string | null;
  name: string;
  size?: number;
  live?: boolean;
  className?: string;
}

/** Round avatar; without an image it shows the initial on the brand gradient rather than a broken image. */
export function Avatar({ src, name, size = 40, live = false, className = '' }: AvatarProps) {
  return (
    <span
      className={`avatar${live ? ' avatar-live' : ''} ${className}`}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42) }}
    >
      {src ? (
        <img src={src} alt="" width={size} height={size} loading="lazy" decoding="async" />
      ) : (
        <span aria-hidden="true">{name.trim().charAt(0).toUpperCase() || '?'}</span>
      )}
    </span>
  );
}
