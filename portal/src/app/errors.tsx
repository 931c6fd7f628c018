import { Link, isRouteErrorResponse, useRouteError } from 'react-router';

export function NotFound() {
  return (
    <section className="page-message" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Nothing here</h1>
      <p>
        This address shows no page. <Link to="/resources">Go to Resources</Link>.
      </p>
    </section>
  );
}

/** A page that failed to render: what went wrong, and a way back. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <main className="notice" role="alert">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <p>
        <a href="/portal/">Back to the portal</a>
      </p>
    </main>
  );
}
