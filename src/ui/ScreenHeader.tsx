import type { ReactNode } from 'react';
import { BackButton } from './BackButton';
import './ui.css';

/** Sticky top bar of every secondary screen: back button, then the screen title. */
export function ScreenHeader({ title, children }: { title?: string; children?: ReactNode }) {
  return (
    <header className="screen-header">
      <BackButton />
      {title !== undefined && <h1 className="screen-header-title">{title}</h1>}
      {children}
    </header>
  );
}
