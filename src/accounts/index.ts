/**
 * src/accounts/'s front door: people: sign-in, sessions, invitations, members and passwords. Other folders
 * import it only through here.
 */
export { registerAccountRoutes } from './account.routes.js';
export { createAccountService } from './account.service.js';
export { registerMemberRoutes } from './member.routes.js';
export { createMemberService } from './member.service.js';
export { registerPasswordRoutes } from './password.routes.js';
export { createPasswordService } from './password.service.js';
