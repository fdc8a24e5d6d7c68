import { useEffect, useState } from 'react';
import { discoverGender, fetchDiscover } from '../../api/discover';

/**
 * The display name of the cam site a feed shows (spec §2: 'Best of {site}'). Discover hands it over with the
 * link; a reload or a shared link looks it up in discover's site list (the service worker keeps a copy).
 */
export function useSiteName(slug: string | undefined, handedOver: string | undefined, gender: string) {
  const [found, setFound] = useState<{ slug: string; name: string } | null>(null);
  useEffect(() => {
    if (!slug || handedOver) return;
    const controller = new AbortController();
    fetchDiscover(discoverGender(gender), controller.signal).then(
      (answer) => {
        const site = answer.webcam_sites.find(
          (s) => s.slug === slug.toLowerCase() || String(s.slug) === slug,
        );
        if (site && !controller.signal.aborted) setFound({ slug, name: site.name });
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [slug, handedOver, gender]);
  if (!slug) return undefined;
  return handedOver ?? (found?.slug === slug ? found.name : undefined);
}
