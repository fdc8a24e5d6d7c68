import { useEffect, useState } from 'react';
import { postContact } from '../../api/contact';
import { useOwnProfile } from '../../api/useOwnProfile';
import { contactSchema, messages } from '../../contract';
import { Form, SubmitButton, TextAreaField, TextField, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { ChatIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import './support.css';

/**
 * /support (spec §2 contact form): Email and Message to the operator. The contract's own schema checks the
 * form first, so a mistake reads the same as the server would say it; a 429 gets the spec's words, any other
 * failure the server's message. What is typed stays on the device until it is sent. A signed-in person finds
 * their account's email already in (still theirs to change): at once when the account was read before,
 * else once it is.
 */
export function SupportScreen() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const accountEmail = useOwnProfile().profile?.email ?? '';
  const form = useForm({
    schema: contactSchema,
    initial: { email: accountEmail, message: '' },
    draft: { key: 'support' },
    errorTexts: { status: { 429: messages.contact.tooMany } },
    onSubmit: async (input) => {
      await postContact(input);
      // Spec §4: on success the fields clear (the account's email stays in for a next message).
      form.reset({ email: accountEmail, message: '' });
      setSentTo(input.email);
    },
  });
  const { prefill } = form;
  useEffect(() => {
    if (accountEmail) prefill({ email: accountEmail });
  }, [accountEmail, prefill]);
  const typing = form.values.message !== '' || ![accountEmail, ''].includes(form.values.email);

  return (
    <>
      <ScreenHeader title="User details" />
      <div className="screen-body support-body">
        <header className="support-intro">
          <span className="support-icon" aria-hidden="true">
            <ChatIcon />
          </span>
          <h2 className="support-title">Support and Contact Information</h2>
          <p className="screen-lead">
            Questions about your account or a video? Write to us and we answer by email.
          </p>
        </header>
        {sentTo && !typing && (
          <p className="support-sent" role="status">
            <strong>{messages.contact.sent}</strong> We'll reply to {sentTo}.
          </p>
        )}
        <Form form={form} aria-label="Contact" className="support-form">
          <TextField
            form={form}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
          />
          <TextAreaField form={form} name="message" label="Message" rows={6} placeholder="How can we help?" />
          <SubmitButton form={form}>Send</SubmitButton>
        </Form>
        <p className="support-more">
          Quick answers: <Link to="/page/faq">FAQ</Link> · <Link to="/page/terms">Terms</Link> ·{' '}
          <Link to="/page/policy">Privacy</Link>
        </p>
      </div>
    </>
  );
}
