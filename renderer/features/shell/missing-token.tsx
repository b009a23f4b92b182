import { BrandIcon } from '../../ui/icons';

/** Browser mode opened without the per-run token: explain how to get the right address. */
export function MissingToken() {
  return (
    <main className="fullpage">
      <div className="fullpage-card">
        <span className="brand-mark large">
          <BrandIcon />
        </span>
        <h1>Open Berth from the address it printed</h1>
        <p>
          This page needs the private link Berth creates each time it starts, so that no other website or program on
          this computer can control your MCP servers.
        </p>
        <ol>
          <li>
            In a terminal, run <code>npm start</code> in the Berth folder (or look at the terminal where it is already
            running).
          </li>
          <li>
            Open the address it prints, which looks like <code>http://127.0.0.1:PORT/#token=…</code>
          </li>
        </ol>
        <p className="muted">The link only works while that Berth is running, and a new one is made at every start.</p>
      </div>
    </main>
  );
}
