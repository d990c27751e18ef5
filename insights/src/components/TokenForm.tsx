// Asks for the admin token once per tab. The form never submits itself: the token goes in a
// request header, never into a URL.
import {type FormEvent, useState} from 'react';

interface Props {
  message: string;
  busy: boolean;
  onToken: (token: string) => void;
}

export function TokenForm({message, busy, onToken}: Props) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <form className="card token" onSubmit={submit} method="post" aria-labelledby="token-title">
      <h2 id="token-title">Admin token</h2>
      <p>
        This page shows what readers asked, so it needs the server’s admin token: the <code>token</code> in <code>&lt;data&gt;/server.json</code>{' '}
        that <code>bookchat serve</code> writes when it starts. It is kept for this tab only.
      </p>
      <label htmlFor="token">Token</label>
      <div className="row">
        <input id="token" name="token" type="password" autoComplete="off" spellCheck={false} value={value} onChange={(e) => setValue(e.target.value)} required />
        <button type="submit" disabled={busy || !value.trim()}>
          {busy ? 'Opening…' : 'Open insights'}
        </button>
      </div>
      {message ? (
        <p role="alert" className="alert">
          {message}
        </p>
      ) : null}
    </form>
  );
}
