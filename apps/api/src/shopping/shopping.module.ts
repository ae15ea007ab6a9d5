import { Module, type DynamicModule } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { CatalogService } from './catalog.service';
import { LeadsService } from './leads.service';
import { PromotionsService } from './promotions.service';
import { ShoppingExtensionsController } from './shopping-extensions.controller';
import { ShoppingController } from './shopping.controller';
import { TenantsService } from './tenants.service';
import { VERIFICATION_CODE_KEY, verificationCodeKey } from './verification-code';

@Module({})
export class ShoppingModule {
  /** `serverSecret` keys the verification codes' hashes (PORTAL_TOKEN_SECRET: required and secret in production). */
  static forRoot(options: { serverSecret: string }): DynamicModule {
    return {
      module: ShoppingModule,
      imports: [NotificationsModule],
      controllers: [ShoppingExtensionsController, ShoppingController],
      providers: [
        CatalogService,
        LeadsService,
        PromotionsService,
        TenantsService,
        { provide: VERIFICATION_CODE_KEY, useValue: verificationCodeKey(options.serverSecret) },
      ],
    };
  }
}
