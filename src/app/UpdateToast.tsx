import { useAtom } from 'jotai';
import { swUpdateAtom } from '../state/sw';

export function UpdateToast() {
  const [update, setUpdate] = useAtom(swUpdateAtom);
  if (!update) return null;
  return (
    <div className="toast" role="alert">
      <span className="toast-text">A new version of ShortCams is ready.</span>
      <button type="button" className="btn btn-primary" onClick={() => void update()}>
        Reload
      </button>
      <button type="button" className="btn btn-ghost" onClick={() => setUpdate(null)}>
        Later
      </button>
    </div>
  );
}
