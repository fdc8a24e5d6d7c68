import { useEffect, useState } from 'react';
import { fetchStats } from '../../api/stats';
import { useRequest } from '../../api/useRequest';
import {
  daysBetween,
  type StatsInput,
  type StatsResponse,
  sixMonthsAgo,
  statsInputSchema,
  statsMessages,
  utcDay,
} from '../../contract';
import { useForm } from '../../ui/form';
import { DatePickerField } from '../../ui/form/DatePickerField';
import { formatCount } from '../../ui/format';
import { EyeIcon, HeartIcon, PlayIcon, UserIcon } from '../../ui/icons';
import { LinkIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import { StatsChart } from './StatsChart';
import './stats.css';

/**
 * /account/stats (spec §2, §4, §9): lifetime totals, then a range (by default the last 30 days, at most six
 * months back) with views, likes, new followers, link clicks by link, and a chart of each day. The date fields
 * are read-only and open a calendar; the figures reload once both dates are set and the start is not after
 * the end.
 */
export function StatsScreen() {
  const [range, setRange] = useState<StatsInput | undefined>();
  const key = range ? `${range.from}..${range.to}` : 'default';
  const request = useRequest(`stats:${key}`, (signal) => fetchStats(range, signal));
  // The last figures stay on screen while a new range loads.
  const [shown, setShown] = useState<StatsResponse | null>(null);
  const answer = request.status === 'success' ? request.data : undefined;
  useEffect(() => {
    if (answer) setShown(answer);
  }, [answer]);

  const form = useForm({
    schema: statsInputSchema,
    initial: { from: '', to: '' },
    onSubmit: () => undefined,
  });
  const { reset } = form;
  // The fields start from the range the server chose (its default 30 days).
  const first = shown === null;
  useEffect(() => {
    if (first && answer) reset({ from: answer.range.from, to: answer.range.to });
  }, [first, answer, reset]);

  const picked = (field: 'from' | 'to', day: string) => {
    const next = { from: form.values.from, to: form.values.to, [field]: day };
    // The start after the end: the contract's message shows, and nothing reloads until it is fixed.
    if (!form.validate(['from', 'to'])) return;
    if (next.from && next.to) setRange({ from: next.from, to: next.to });
  };

  if (!shown) {
    return (
      <>
        <ScreenHeader title={statsMessages.title} />
        {request.status === 'error' ? (
          <div className="screen-body">
            <LoadFailed title="Couldn't load your stats" error={request.error} onRetry={request.retry} />
          </div>
        ) : (
          <Spinner fill />
        )}
      </>
    );
  }

  const { lifetime, range: figures } = shown;
  const today = utcDay(new Date());
  const earliest = sixMonthsAgo(new Date());
  const loading = request.status === 'loading';

  return (
    <>
      <ScreenHeader title={statsMessages.title} />
      <div className="screen-body stats-screen">
        <section aria-labelledby="stats-lifetime">
          <h2 id="stats-lifetime" className="stats-heading">
            All time
          </h2>
          <dl className="stats-cards is-lifetime">
            <Figure label="Videos" value={lifetime.total_videos} Icon={PlayIcon} />
            <Figure label="Likes" value={lifetime.total_likes} Icon={HeartIcon} />
            <Figure label="Views" value={lifetime.total_views} Icon={EyeIcon} />
            <Figure label="Followers" value={lifetime.total_followers} Icon={UserIcon} />
          </dl>
        </section>

        <section className="stats-range" aria-labelledby="stats-range" aria-busy={loading}>
          <div className="stats-range-head">
            <h2 id="stats-range" className="stats-heading">
              {statsMessages.lastDays(daysBetween(figures.from, figures.to))}
            </h2>
            {loading && <span className="stats-loading" role="status" aria-label="Loading" />}
          </div>
          <div className="stats-dates">
            <DatePickerField
              form={form}
              name="from"
              label="From"
              min={earliest}
              max={today}
              onPicked={(day) => picked('from', day)}
            />
            <DatePickerField
              form={form}
              name="to"
              label="To"
              min={earliest}
              max={today}
              onPicked={(day) => picked('to', day)}
            />
          </div>
          {request.status === 'error' && (
            <LoadFailed
              compact
              title="Couldn't load these dates"
              error={request.error}
              onRetry={request.retry}
            />
          )}
          <dl className="stats-cards is-range">
            <Figure label="Views" value={figures.video_views} Icon={EyeIcon} />
            <Figure label="Likes" value={figures.video_likes} Icon={HeartIcon} />
            <Figure label="New followers" value={figures.new_followers} Icon={UserIcon} />
          </dl>
          <StatsChart daily={figures.daily} />
        </section>

        <section aria-labelledby="stats-links">
          <h2 id="stats-links" className="stats-heading">
            Link clicks
          </h2>
          {figures.link_clicks.length === 0 ? (
            <p className="stats-empty">Add links to your profile to see how often they are clicked.</p>
          ) : (
            <ul className="stats-links">
              {figures.link_clicks.map((link, i) => (
                // Two links may share a name; their order is the profile's.
                // biome-ignore lint/suspicious/noArrayIndexKey: the list has no other identity.
                <li key={i} className="stats-link">
                  <LinkIcon aria-hidden="true" />
                  <span className="stats-link-name">{link.name}</span>
                  <span className="stats-link-clicks">
                    {formatCount(link.clicks)} <span>{link.clicks === 1 ? 'click' : 'clicks'}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function Figure({
  label,
  value,
  Icon,
}: {
  label: string;
  value: number;
  Icon: React.ComponentType<{ className?: string }>;
}) {
  return (
    <div className="stats-card">
      <dt>
        <Icon className="stats-card-icon" />
        {label}
      </dt>
      <dd title={value.toLocaleString()}>{formatCount(value)}</dd>
    </div>
  );
}
