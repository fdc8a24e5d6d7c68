import type { ComponentType } from 'react';
import { DISCORD_URL, SUPPORT_EMAIL, WHATSAPP_URL } from '../../config';
import { Link } from '../../ui/Link';
import {
  ChatIcon,
  ChevronRightIcon,
  DiscordIcon,
  HelpIcon,
  MailIcon,
  WhatsAppIcon,
} from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import './support.css';

interface Channel {
  label: string;
  note: string;
  href: string;
  Icon: ComponentType<{ className?: string }>;
  tone: 'discord' | 'whatsapp' | 'email';
}

/** Spec §2 /account/help: Discord, WhatsApp and email support, their addresses set at build time. */
export const helpChannels = (): Channel[] => [
  {
    label: 'Discord',
    note: 'Chat with the team and other creators',
    href: DISCORD_URL,
    Icon: DiscordIcon,
    tone: 'discord',
  },
  {
    label: 'WhatsApp',
    note: 'Message support from your phone',
    href: WHATSAPP_URL,
    Icon: WhatsAppIcon,
    tone: 'whatsapp',
  },
  {
    label: 'Email support',
    note: SUPPORT_EMAIL,
    href: `mailto:${SUPPORT_EMAIL}`,
    Icon: MailIcon,
    tone: 'email',
  },
];

/** /account/help: the ways to reach support, then the contact form and the FAQ. */
export function HelpScreen() {
  return (
    <>
      <ScreenHeader title="Help" />
      <div className="screen-body support-body">
        <header className="support-intro">
          <span className="support-icon" aria-hidden="true">
            <HelpIcon />
          </span>
          <h2 className="support-title">How can we help?</h2>
          <p className="screen-lead">Reach the ShortCams team wherever suits you best.</p>
        </header>
        <ul className="help-channels" aria-label="Support channels">
          {helpChannels().map(({ label, note, href, Icon, tone }) => (
            <li key={label}>
              {/* mailto: hands over to the mail app; the others open beside the app, in a new tab. */}
              <a
                className={`help-channel is-${tone}`}
                href={href}
                {...(tone === 'email' ? {} : { target: '_blank', rel: 'noopener' })}
              >
                <span className="help-channel-icon" aria-hidden="true">
                  <Icon />
                </span>
                <span className="help-channel-text">
                  <span className="help-channel-label">{label}</span>
                  <span className="help-channel-note">{note}</span>
                </span>
                <ChevronRightIcon className="help-channel-chevron" />
              </a>
            </li>
          ))}
        </ul>
        <Link to="/support" className="help-more">
          <ChatIcon />
          <span>Write to us with the contact form</span>
        </Link>
        <Link to="/page/faq" className="help-more">
          <HelpIcon />
          <span>Read the FAQ</span>
        </Link>
      </div>
    </>
  );
}
