/**
 * src/notifications/'s front door: notifications to team members, in the dashboard and by email. Other
 * folders import it only through here.
 */
export { registerNotificationRoutes } from './notification.routes.js';
export { createNotificationService, type NotificationService } from './notification.service.js';
