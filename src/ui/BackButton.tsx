import { useNavigate } from 'react-router';
import { ChevronLeftIcon } from './icons';
import './ui.css';

export function BackButton({ className = '' }: { className?: string }) {
  const navigate = useNavigate();
  const goBack = () => {
    // react-router's history entries carry their index: 0 means this app page was the entry point (a shared
    // link, a fresh tab), where going "back" would leave the app, so go home instead.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  };
  return (
    <button type="button" className={`back-button ${className}`} onClick={goBack} aria-label="Back">
      <ChevronLeftIcon />
    </button>
  );
}
