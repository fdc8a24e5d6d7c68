import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { ApiError } from '../../api/http';
import { updateLinks } from '../../api/profile';
import { type Link, linkActionSchema, messages, type OwnProfile } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Form, SubmitButton, TextField, useForm } from '../../ui/form';
import { PlusIcon } from '../../ui/icons';
import { Sheet } from '../../ui/Sheet';
import { LinksList, ProfileSection } from './ProfileSections';

const p = messages.profile;

/**
 * The owner's links (spec §2, §5, §8): add in a sheet, delete after a confirmation. The list shown is always
 * the server's own (`user.links` of the answer); a delete hides its row at once and puts it back if the call
 * fails, silently as the spec has it.
 */
export function OwnerLinks({ links, onChange }: { links: Link[]; onChange: (profile: OwnProfile) => void }) {
  const showToast = useSetAtom(showToastAtom);
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<Link | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());

  const remove = async (link: Link) => {
    setAsking(null);
    setHidden((ids) => new Set(ids).add(link.id));
    try {
      const answer = await updateLinks([{ action: 'delete', id: link.id }]);
      onChange(answer.user);
      showToast(p.linkDeleted);
    } catch {
      // Spec §8: a failed delete says nothing (a 402 has already gone to /login); the row comes back.
    } finally {
      setHidden((ids) => {
        const next = new Set(ids);
        next.delete(link.id);
        return next;
      });
    }
  };

  return (
    <ProfileSection
      title="Links"
      action={
        <button type="button" className="profile-section-action" onClick={() => setAdding(true)}>
          <PlusIcon aria-hidden="true" />
          Add link
        </button>
      }
    >
      <LinksList links={links.filter((link) => !hidden.has(link.id))} onDelete={setAsking} />
      {adding && (
        <AddLinkSheet
          onClose={() => setAdding(false)}
          onAdded={(profile) => {
            setAdding(false);
            onChange(profile);
            showToast(p.linkAdded);
          }}
        />
      )}
      {asking && (
        <ConfirmDialog
          title="Delete link"
          text={p.confirmDeleteLink}
          confirmLabel="Delete"
          onConfirm={() => void remove(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </ProfileSection>
  );
}

/** 'links.0.url' → 'url': the server names the field inside the list it was sent in. */
function unnested(errors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([key, list]) => [key.split('.').pop() ?? key, list]));
}

function AddLinkSheet({ onClose, onAdded }: { onClose: () => void; onAdded: (profile: OwnProfile) => void }) {
  const form = useForm({
    schema: linkActionSchema,
    initial: { action: 'add' as const, url: '', name: '' },
    // Spec §5/§8: whatever else the server answers (a 402 has gone to /login) reads 'Invalid SERVER RESPONSE'.
    errorTexts: { serverMessage: false, fallback: p.linkServerError },
    // Closed by mistake, reopened: what was typed is still there.
    draft: { key: 'profile-add-link' },
    onSubmit: async (link) => {
      try {
        const answer = await updateLinks([link]);
        onAdded(answer.user);
      } catch (error) {
        if (error instanceof ApiError && error.status === 422 && error.errors)
          throw new ApiError(422, error.message, unnested(error.errors), { fromServer: true });
        throw error;
      }
    },
  });

  return (
    <Sheet title="Add link" onClose={onClose}>
      <Form form={form} aria-label="Add link">
        <TextField
          form={form}
          name="url"
          label="URL"
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://example.com/me"
        />
        <TextField
          form={form}
          name="name"
          label="Name"
          hint="Optional: the site's name is used without one."
          maxLength={80}
          placeholder="My cam room"
        />
        <SubmitButton form={form}>Add link</SubmitButton>
      </Form>
    </Sheet>
  );
}
