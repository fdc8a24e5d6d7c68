import { useEffect, useMemo, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import * as v from 'valibot';
import { ApiError } from '../../api/http';
import { fetchPage } from '../../api/pages';
import { useRequest } from '../../api/useRequest';
import { messages, pageSlugSchema } from '../../contract';
import { Link } from '../../ui/Link';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { sanitizeHtml } from '../../ui/sanitize';
import './page.css';

export function PageScreen() {
  const { slug = '' } = useParams();
  const page = useRequest(`page:${slug}`, (signal) =>
    // A slug the server could never know is not worth a request.
    v.is(pageSlugSchema, slug)
      ? fetchPage(slug, signal)
      : Promise.reject(new ApiError(404, messages.page.notFound)),
  );
  const content = page.status === 'success' ? page.data.content : null;
  const html = useMemo(() => (content === null ? '' : sanitizeHtml(content)), [content]);

  if (page.status === 'loading') {
    return (
      <>
        <ScreenHeader />
        <Spinner fill />
      </>
    );
  }
  if (page.status === 'error') {
    return (
      <>
        <ScreenHeader />
        <section className="page-missing">
          <h1 className="page-missing-title">{messages.page.notFound}</h1>
          <Link to="/" className="btn btn-ghost">
            Go home
          </Link>
        </section>
      </>
    );
  }
  return (
    <>
      <ScreenHeader title={page.data.title} />
      <PageContent html={html} />
    </>
  );
}

function PageContent({ html }: { html: string }) {
  const ref = useRef<HTMLElement>(null);
  const navigate = useNavigate();

  // Links between pages (terms → policy) stay inside the app instead of reloading it.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a') : null;
      if (!anchor?.href || anchor.target) return;
      const url = new URL(anchor.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(`${url.pathname}${url.search}${url.hash}`);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [navigate]);

  return (
    <article
      ref={ref}
      className="page-content"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML went through sanitizeHtml (DOMPurify).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
