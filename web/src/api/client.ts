import { api } from '../api';
import type { paths as DashboardPaths } from './schema';
import type { paths as PublicPaths } from './public';

/**
 * Typed calls to Parley's two documents: the dashboard's own endpoints (docs/dashboard-openapi.yaml,
 * `dashboard.get('/api/dashboard/…')`) and the public API (docs/openapi.yaml, `v1.get('/v1/…')` and
 * `action('list-tags', …)`). The path names the operation, and the operation gives the options'
 * and the answer's types; the request itself (cookie, CSRF token, problem details) is `api`'s.
 */

type Method = 'get' | 'post' | 'put' | 'delete';

/** The paths of a document that have this method. */
export type PathWith<P, M extends Method> = { [K in keyof P]: P[K] extends Record<M, object> ? K : never }[keyof P] &
  string;

type Operation<P, K extends keyof P, M extends Method> = P[K] extends Record<M, infer O> ? O : never;

type Success<R> = R extends { 200: infer S }
  ? S
  : R extends { 201: infer S }
    ? S
    : R extends { 202: infer S }
      ? S
      : never;
type Json<S> = S extends { content: { 'application/json': infer J } } ? J : never;

/** What an operation answers (its 200, 201 or 202 JSON). */
export type AnswerOf<O> = O extends { responses: infer R } ? Json<Success<R>> : never;

type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? { body: B } : object;
type ParametersOf<O> = O extends { parameters: infer P }
  ? Pick<P, 'path' & keyof P> & Pick<P, 'query' & keyof P>
  : object;

/** The path and query parameters and the body an operation takes. */
export type OptionsOf<O> = ParametersOf<O> & BodyOf<O>;

interface RawOptions {
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

/** `/api/dashboard/team/{id}` with `{ id }` filled in (encoded), and the query's set values appended. */
function urlOf(prefix: string, template: string, options: RawOptions): string {
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.path?.[name] ?? ''));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) query.set(name, String(value));
  }
  const search = query.toString();
  return `${prefix}${filled}${search ? `?${search}` : ''}`;
}

/** Options are optional where the operation needs none (no path parameter, no body). */
type Args<O> = object extends OptionsOf<O> ? [options?: OptionsOf<O>] : [options: OptionsOf<O>];

/** A listing answers its cursor page only when the query asks for one (`paginate: 'cursor'`), else its plain list. */
type PagedAnswer<A, G extends unknown[]> = G[0] extends { query: { paginate: 'cursor' } }
  ? Exclude<A, readonly unknown[]>
  : Unpaged<A>;

function call<P, M extends Method>(prefix: string, method: M) {
  const verb = method.toUpperCase() as Uppercase<M>;
  // A change without a body still sends `{}`, as every form's change always has.
  const defaultBody = method === 'post' || method === 'put' ? {} : undefined;
  return <K extends PathWith<P, M>, const G extends Args<Operation<P, K, M>>>(path: K, ...given: G) => {
    const raw = (given[0] ?? {}) as RawOptions;
    return api<PagedAnswer<AnswerOf<Operation<P, K, M>>, G>>(verb, urlOf(prefix, path, raw), raw.body ?? defaultBody);
  };
}

function client<P>(prefix: string) {
  return {
    get: call<P, 'get'>(prefix, 'get'),
    post: call<P, 'post'>(prefix, 'post'),
    put: call<P, 'put'>(prefix, 'put'),
    delete: call<P, 'delete'>(prefix, 'delete'),
  };
}

/** The dashboard's own endpoints: `dashboard.get('/api/dashboard/contacts', { query })`. */
export const dashboard = client<DashboardPaths>('');

/** The public API, as integrations call it: `v1.get('/v1/reports/volume', { query })`. */
export const v1 = client<PublicPaths>('/api');

type ActionPath = PathWith<PublicPaths, 'post'> & `/v1/actions/${string}`;
/** The public API's actions by name: `list-tags`, `get-contact`… */
export type ActionName = ActionPath extends `/v1/actions/${infer N}` ? N : never;
type ActionOperation<N extends ActionName> = Operation<PublicPaths, `/v1/actions/${N}`, 'post'>;
/** A listing's cursor page comes back only when asked for (`?paginate=cursor`), which `action` never does. */
type Unpaged<A> = [Extract<A, readonly unknown[]>] extends [never] ? A : Extract<A, readonly unknown[]>;
/** What an action answers. */
export type ActionAnswer<N extends ActionName> = Unpaged<AnswerOf<ActionOperation<N>>>;
/** What an action takes. */
export type ActionBody<N extends ActionName> =
  ActionOperation<N> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

type ActionArgs<N extends ActionName> = object extends ActionBody<N> ? [body?: ActionBody<N>] : [body: ActionBody<N>];

/** POST /api/v1/actions/NAME: the spec's actions, as integrations call them. */
export const action = <N extends ActionName>(name: N, ...[body]: ActionArgs<N>) =>
  api<ActionAnswer<N>>('POST', `/api/v1/actions/${name}`, body ?? {});

/** What a dashboard endpoint answers, for a page's props and state: `DashboardAnswer<'/api/dashboard/team'>`. */
export type DashboardAnswer<K extends keyof DashboardPaths, M extends Method = 'get'> = AnswerOf<
  Operation<DashboardPaths, K, M>
>;

/** What a dashboard endpoint takes (path and query parameters, body): `DashboardOptions<'/api/dashboard/contacts'>`. */
export type DashboardOptions<K extends keyof DashboardPaths, M extends Method = 'get'> = OptionsOf<
  Operation<DashboardPaths, K, M>
>;

/** What a public endpoint answers. */
export type PublicAnswer<K extends keyof PublicPaths, M extends Method = 'get'> = AnswerOf<
  Operation<PublicPaths, K, M>
>;
