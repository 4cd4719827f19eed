import { render } from 'preact';
import { App } from './app';
import { startI18n } from './i18n/i18n';
import './styles.css';

await startI18n();
render(<App />, document.getElementById('app')!);
