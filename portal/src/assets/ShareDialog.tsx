/**
 * The Share dialog (spec document 1, "Share creation body"): who (anyone with the link, or a named
 * person by user id and/or email), how long (expires_in), whether the viewer shows the countdown
 * (hide_expiration) and which notice (the built-in confidentiality notice, none, or the person's
 * own of at most 500 characters). Once created, the link is shown with Copy link — only now: the
 * platform keeps nothing but its hash. The server's refusal is shown as it is.
 */
import { useRef, useState } from 'react';
import { Checkbox, Label, ListBox, ListBoxItem, Popover, Radio, RadioGroup, Select, SelectValue, Button as AriaButton } from 'react-aria-components';
import { Check, ChevronDown, Copy } from 'lucide-react';
import { messageOf } from '../api/client';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../ui/Alert';
import { Field } from '../ui/Field';
import { assetApi, type CreatedShare } from './queries';

const expiries = [
  { id: '', label: 'Never (until revoked)' },
  { id: '1h', label: '1 hour' },
  { id: '24h', label: '1 day' },
  { id: '7d', label: '7 days' },
  { id: '30d', label: '30 days' },
  { id: '90d', label: '90 days' },
];

const MAX_NOTICE = 500;

export function ShareDialog(props: { assetId: string; assetName: string; isOpen: boolean; onClose(created: boolean): void }) {
  const [who, setWho] = useState<'public' | 'private'>('public');
  const [userId, setUserId] = useState('');
  const [email, setEmail] = useState('');
  const [expiresIn, setExpiresIn] = useState('7d');
  const [hideExpiration, setHideExpiration] = useState(false);
  const [notice, setNotice] = useState<'default' | 'none' | 'own'>('default');
  const [noticeText, setNoticeText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedShare>();
  const [copied, setCopied] = useState<string>();
  const linkInput = useRef<HTMLInputElement>(null);

  const link = created ? (created.url ?? `${window.location.origin}${created.path}`) : '';
  const noticeLength = [...noticeText].length;

  async function create() {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await assetApi.share(props.assetId, {
        ...(expiresIn ? { expires_in: expiresIn } : {}),
        ...(who === 'private' && userId.trim() ? { shared_with_user_id: userId.trim() } : {}),
        ...(who === 'private' && email.trim() ? { shared_with_email: email.trim() } : {}),
        hide_expiration: hideExpiration,
        notice_text: notice === 'default' ? null : notice === 'none' ? '' : noticeText,
      });
      setCreated(answer);
      // The link is the one thing to do next: focus it, selected, for copying.
      setTimeout(() => {
        linkInput.current?.focus();
        linkInput.current?.select();
      }, 0);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Link copied.');
    } catch {
      linkInput.current?.select();
      setCopied('Copying was not allowed here: the link is selected, copy it with Ctrl+C.');
    }
  }

  const privateIncomplete = who === 'private' && !userId.trim() && !email.trim();

  return (
    <Dialog title={`Share “${props.assetName}”`} isOpen={props.isOpen} onOpenChange={(open) => (open ? undefined : props.onClose(created !== undefined))}>
      {created ? (
        <div className="share-created">
          <p>
            {created.share.public ? 'Anyone with this link can open it, without signing in.' : 'Only the person named can open this link, signed in.'} The link is
            shown only now: copy it before closing.
          </p>
          <div className="share-link">
            <label className="field-label" htmlFor="share-link">
              Link
            </label>
            <div className="share-link-row">
              <input id="share-link" ref={linkInput} className="field-input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
              <Button variant="primary" onPress={() => void copy()}>
                <Copy aria-hidden size={16} /> Copy link
              </Button>
            </div>
          </div>
          {copied ? <StatusMessage>{copied}</StatusMessage> : null}
          <DialogActions>
            <Button onPress={() => props.onClose(true)}>Done</Button>
          </DialogActions>
        </div>
      ) : (
        <form
          className="share-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!busy && !privateIncomplete) void create();
          }}
        >
          <RadioGroup className="share-group" value={who} onChange={(v) => setWho(v as 'public' | 'private')}>
            <Label className="field-label">Who can open it</Label>
            <Radio value="public" className="share-radio">
              Anyone with the link
            </Radio>
            <Radio value="private" className="share-radio">
              A named person (signs in to open it)
            </Radio>
          </RadioGroup>
          {who === 'private' ? (
            <div className="share-person">
              <Field label="User id" description="Their subject, e.g. oidc:issuer#user" value={userId} onChange={setUserId} />
              <Field label="Email" type="email" value={email} onChange={setEmail} />
              {privateIncomplete ? <p className="field-description">Give a user id, an email, or both.</p> : null}
            </div>
          ) : null}
          <Select className="share-select" selectedKey={expiresIn} onSelectionChange={(key) => setExpiresIn(String(key))}>
            <Label className="field-label">Link expires</Label>
            <AriaButton className="field-input share-select-button">
              <SelectValue />
              <ChevronDown aria-hidden size={16} />
            </AriaButton>
            <Popover className="share-popover">
              <ListBox className="share-listbox">
                {expiries.map((e) => (
                  <ListBoxItem key={e.id} id={e.id} className="share-option" textValue={e.label}>
                    {({ isSelected }) => (
                      <>
                        {e.label}
                        {isSelected ? <Check aria-hidden size={14} /> : null}
                      </>
                    )}
                  </ListBoxItem>
                ))}
              </ListBox>
            </Popover>
          </Select>
          <Checkbox className="share-checkbox" isSelected={hideExpiration} onChange={setHideExpiration} isDisabled={!expiresIn}>
            {({ isSelected }) => (
              <>
                <span className="share-checkbox-box" aria-hidden>
                  {isSelected ? <Check size={12} /> : null}
                </span>
                Hide the expiry from the viewer
              </>
            )}
          </Checkbox>
          <RadioGroup className="share-group" value={notice} onChange={(v) => setNotice(v as 'default' | 'none' | 'own')}>
            <Label className="field-label">Notice shown with it</Label>
            <Radio value="default" className="share-radio">
              The confidentiality notice
            </Radio>
            <Radio value="none" className="share-radio">
              No notice
            </Radio>
            <Radio value="own" className="share-radio">
              My own notice
            </Radio>
          </RadioGroup>
          {notice === 'own' ? (
            <Field
              label="Notice text"
              multiline
              value={noticeText}
              onChange={setNoticeText}
              description={`${noticeLength} of ${MAX_NOTICE} characters`}
              error={noticeLength > MAX_NOTICE ? `The notice holds at most ${MAX_NOTICE} characters.` : undefined}
            />
          ) : null}
          <ErrorMessage>{error}</ErrorMessage>
          <DialogActions>
            <Button onPress={() => props.onClose(false)}>Cancel</Button>
            <Button variant="primary" type="submit" isDisabled={busy || privateIncomplete}>
              {busy ? 'Creating…' : 'Create link'}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
