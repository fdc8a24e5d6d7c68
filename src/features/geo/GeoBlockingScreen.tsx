import { useSetAtom } from 'jotai';
import { useMemo, useState } from 'react';
import { firstFieldError } from '../../api/errors';
import { addGeoBlock, deleteGeoBlock, fetchCountries, fetchGeoBlocks, fetchRegions } from '../../api/geo';
import { ApiError } from '../../api/http';
import { useRequest } from '../../api/useRequest';
import { type GeoBlockEntry, type GeoBlockInput, geoBlockInputSchema, geoMessages } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Form, SelectField, SubmitButton, useForm } from '../../ui/form';
import { GlobeIcon, PlusIcon } from '../../ui/icons';
import { TrashIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Sheet } from '../../ui/Sheet';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import './geo.css';

type Names = { country: (code: string) => string; region: (country: string, region: string) => string };

const sameEntry = (a: GeoBlockEntry, b: { country_code: string; region_code?: string | null | undefined }) =>
  a.country_code === b.country_code && (a.region_code ?? '') === (b.region_code ?? '');

// A failed add says the spec's words, unless the server named what was wrong ('Error: Unknown region.').
const addTexts = {
  network: geoMessages.couldNotAdd,
  answered: (status: number, message: string | undefined) =>
    status === 422 && message ? message : geoMessages.couldNotAdd,
};

/**
 * /account/settings/geo-blocking (spec §2, §4, §8): the countries and regions whose viewers cannot see this
 * creator, with a flag, the name and 'Region: …' or 'Entire country'; Add Country and Add Region open bottom
 * sheets. The server enforces the blocks; this screen only edits the list.
 */
export function GeoBlockingScreen() {
  const [attempt, setAttempt] = useState(0);
  const loaded = useRequest(`geo-blocks:${attempt}`, (signal) => fetchGeoBlocks(signal));
  const countries = useRequest('countries', () => fetchCountries());
  const regions = useRequest('regions', () => fetchRegions());
  const [changed, setChanged] = useState<{ list: GeoBlockEntry[]; attempt: number } | null>(null);
  const [sheet, setSheet] = useState<'country' | 'region' | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const showToast = useSetAtom(showToastAtom);

  const list =
    changed && changed.attempt === attempt ? changed.list : loaded.status === 'success' ? loaded.data : null;
  const setList = (next: GeoBlockEntry[]) => setChanged({ list: next, attempt });

  const names: Names = useMemo(() => {
    const countryNames = new Map(
      countries.status === 'success' ? countries.data.map((c) => [c.code, c.name]) : [],
    );
    const regionNames = new Map(
      regions.status === 'success'
        ? regions.data.map((r) => [`${r.countryCode}-${r.regionCode}`, r.name])
        : [],
    );
    return {
      country: (code) => countryNames.get(code) ?? code,
      region: (country, region) => regionNames.get(`${country}-${region}`) ?? region,
    };
  }, [countries, regions]);

  const remove = async (entry: GeoBlockEntry) => {
    const key = `${entry.country_code}-${entry.region_code ?? ''}`;
    setRemoving(key);
    try {
      setList(await deleteGeoBlock(entry));
    } catch {
      showToast(geoMessages.couldNotRemove, { tone: 'error' });
    } finally {
      setRemoving(null);
    }
  };

  const added = (next: GeoBlockEntry[]) => {
    setList(next);
    setSheet(null);
  };

  let body: React.ReactNode;
  if (list) {
    body =
      list.length === 0 ? (
        <div className="geo-empty">
          <GlobeIcon aria-hidden="true" />
          <p className="geo-empty-title">Seen everywhere</p>
          <p className="geo-empty-text">You have not blocked any country or region.</p>
        </div>
      ) : (
        <ul className="geo-list" aria-label="Blocked places">
          {list.map((entry) => {
            const key = `${entry.country_code}-${entry.region_code ?? ''}`;
            const country = names.country(entry.country_code);
            const region = entry.region_code ? names.region(entry.country_code, entry.region_code) : null;
            return (
              <li key={key} className="geo-row">
                <Flag code={entry.country_code} />
                <span className="geo-row-text">
                  <span className="geo-row-country">{country}</span>
                  <span className="geo-row-region">{region ? `Region: ${region}` : 'Entire country'}</span>
                </span>
                <button
                  type="button"
                  className="geo-remove"
                  aria-label={`Remove ${region ? `${region}, ${country}` : country} from the blocked list`}
                  disabled={removing === key}
                  onClick={() => void remove(entry)}
                >
                  <TrashIcon />
                </button>
              </li>
            );
          })}
        </ul>
      );
  } else if (loaded.status === 'error') {
    body = (
      <LoadFailed
        compact
        className="geo-empty"
        title="Couldn't load your blocked places"
        text={geoMessages.couldNotGetList}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else {
    body = <Spinner fill />;
  }

  return (
    <>
      <ScreenHeader title="Geo-blocking" />
      <div className="screen-body geo-screen">
        <p className="screen-lead">Viewers in the places you block cannot see your profile or your videos.</p>
        <div className="geo-actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setSheet('country')}
            disabled={!list}
          >
            <PlusIcon aria-hidden="true" />
            Add Country
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setSheet('region')} disabled={!list}>
            <PlusIcon aria-hidden="true" />
            Add Region
          </button>
        </div>
        {body}
      </div>
      {sheet === 'country' && list && (
        <AddCountrySheet countries={countries} list={list} onAdded={added} onClose={() => setSheet(null)} />
      )}
      {sheet === 'region' && list && (
        <AddRegionSheet
          regions={regions}
          countryName={names.country}
          list={list}
          onAdded={added}
          onClose={() => setSheet(null)}
        />
      )}
    </>
  );
}

/** The country's flag from the flag service (cached by the service worker), or a neutral tile when it fails. */
function Flag({ code }: { code: string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !/^[A-Z]{2}$/.test(code)) {
    return (
      <span className="geo-flag is-placeholder" aria-hidden="true">
        {code}
      </span>
    );
  }
  return (
    <img
      className="geo-flag"
      src={`https://flagcdn.com/48x36/${code.toLowerCase()}.png`}
      width={48}
      height={36}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

type Loaded<T> = ReturnType<typeof useRequest<T>>;

function ListFailed({ retry }: { retry: () => void }) {
  return (
    <LoadFailed
      compact
      title="Couldn't load the places to choose from"
      text={geoMessages.couldNotFetchCountries}
      onRetry={retry}
    />
  );
}

function AddCountrySheet({
  countries,
  list,
  onAdded,
  onClose,
}: {
  countries: Loaded<Awaited<ReturnType<typeof fetchCountries>>>;
  list: GeoBlockEntry[];
  onAdded: (list: GeoBlockEntry[]) => void;
  onClose: () => void;
}) {
  const form = useForm({
    schema: geoBlockInputSchema,
    initial: { country_code: '' },
    errorTexts: addTexts,
    onSubmit: async (input: GeoBlockInput) =>
      onAdded(await addGeoBlock({ country_code: input.country_code })),
  });
  const submit = () => {
    const code = form.values.country_code;
    // Spec §5: no choice, or a country already blocked as a whole, is ignored.
    if (!code) return;
    if (list.some((entry) => sameEntry(entry, { country_code: code }))) return onClose();
    void form.handleSubmit();
  };
  return (
    <Sheet title="Add Country" onClose={onClose}>
      {countries.status === 'error' ? (
        <ListFailed retry={countries.retry} />
      ) : countries.status === 'loading' ? (
        <Spinner />
      ) : (
        <Form form={form} onSubmit={submit} className="geo-sheet-form">
          <SelectField
            form={form}
            name="country_code"
            label="Country"
            placeholder="Select"
            options={countries.data.map((c) => ({ value: c.code, label: c.name }))}
          />
          <SubmitButton form={form}>Add</SubmitButton>
        </Form>
      )}
    </Sheet>
  );
}

function AddRegionSheet({
  regions,
  countryName,
  list,
  onAdded,
  onClose,
}: {
  regions: Loaded<Awaited<ReturnType<typeof fetchRegions>>>;
  countryName: (code: string) => string;
  list: GeoBlockEntry[];
  onAdded: (list: GeoBlockEntry[]) => void;
  onClose: () => void;
}) {
  // The select's value is the ISO 3166-2 code ('US-CA'); the contract reads the region part of it.
  const form = useForm({
    schema: geoBlockInputSchema,
    initial: { country_code: '', region_code: '' },
    errorTexts: addTexts,
    onSubmit: async (input: GeoBlockInput) => {
      try {
        onAdded(
          await addGeoBlock({ country_code: input.country_code, region_code: input.region_code ?? null }),
        );
      } catch (error) {
        // The country is the region's own: whatever the server says about either belongs under the select.
        if (error instanceof ApiError && error.status === 422 && error.errors) {
          const message = firstFieldError(error) ?? error.message;
          throw new ApiError(422, error.message, { region_code: [message] }, { fromServer: true });
        }
        throw error;
      }
    },
  });
  const submit = () => {
    const value = form.values.region_code;
    if (!value) return;
    const country = value.slice(0, 2);
    const region = value.slice(3);
    if (list.some((entry) => sameEntry(entry, { country_code: country, region_code: region })))
      return onClose();
    form.setValues({ country_code: country });
    void form.handleSubmit();
  };
  return (
    <Sheet title="Add Region" onClose={onClose}>
      {regions.status === 'error' ? (
        <ListFailed retry={regions.retry} />
      ) : regions.status === 'loading' ? (
        <Spinner />
      ) : (
        <Form form={form} onSubmit={submit} className="geo-sheet-form">
          <SelectField
            form={form}
            name="region_code"
            label="Region"
            placeholder="Select"
            options={regions.data.map((r) => ({
              value: `${r.countryCode}-${r.regionCode}`,
              label: r.name,
              group: countryName(r.countryCode),
            }))}
          />
          <SubmitButton form={form}>Add</SubmitButton>
        </Form>
      )}
    </Sheet>
  );
}
